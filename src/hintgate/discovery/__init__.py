"""Discovery: finding a tool by what it does (BM25 and static word vectors), and views that show only part of the
catalog.

Pure: no SDK, database or network. The ranking library (bm25s, with numpy) is
imported, and the vectors shipped in `data/` read, when the first index is
built, never at start.
"""
