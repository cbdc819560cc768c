"""A club: its pages, forms, writes, and the results behind standings and player pages."""
