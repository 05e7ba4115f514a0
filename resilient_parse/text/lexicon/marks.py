"""Marks no language owns: symbols models put before or after a candidate to judge it."""

LANGUAGE = "marks"
SCRIPT = "unspaced"
PHRASES = {
    "rejected": ("\u274c", "\u2717", "\u2718", "\u26d4", "\U0001f6ab", "\u2716", "\U0001f44e"),
    "lead_in": ("\u2705", "\u2714", "\u2713", "\U0001f44d"),
}
