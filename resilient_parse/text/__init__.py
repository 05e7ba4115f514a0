"""The text layer: how the prose around an answer is read, in every language the lexicon covers.

`lexicon` holds the cue phrases as data, one table per language, and the one matcher generated from them;
`cues` binds the cues the matcher finds to the candidates they stand before, after or around. No prose word lives
outside the tables.
"""
