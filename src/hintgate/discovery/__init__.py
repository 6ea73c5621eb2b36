"""Discovery: finding a tool by what it does (BM25 search), and views that show only part of the catalog.

Pure: no SDK, database or network. The ranking library (bm25s, with numpy) is
imported when the first index is built, never at start.
"""
