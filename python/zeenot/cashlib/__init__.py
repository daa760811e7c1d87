"""Cashlib on zeenot (issue 31): anonymous credentials, e-cash and their primitives, written as
`zeenot.sigma` statements. See docs/cashlib.md."""
