"""Pages: the table's views, playing against the app, lessons, the installable app, rules pages, hand-over.
"""
