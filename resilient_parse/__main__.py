"""`python -m resilient_parse ...` runs the `resilient-parse` command."""

import sys

from resilient_parse.cli import main

sys.exit(main())
