"""The reader: JSON as models write it, read in one linear pass into strict JSON text with every repair recorded.

The modules follow the grammar, bottom to top: `tokens` (patterns and pure helpers), `frames` (the open
containers and the result), `state` (the pass's state and its common steps), `strings`, `words` (bare words and
numbers), `containers`, and `document` (the loop over the text). `runs` reads stretches of members in one match;
`failure` is how the reader refuses, apart so that callers can raise it without loading the reader.
"""
