"""Tool calls as models write them: the text formats (`formats`, with `pycall` for Python call syntax and `spans`
for JSON values in text), and a union of tool models answered by name (`answer`)."""
