"""Certified data (CRISP's flow): a source signs blocks of records, the user keeps them and
proves results computed from them. See docs/certified.md.

`commit` is the block layout the source signs (also inlined into `@zk` code); `blocks` the
source, the signed block and its file format.
"""

from zeenot.certified.blocks import (
    FORMAT,
    SignedBlock,
    Source,
    circuit_inputs,
    load_blocks,
    parse_blocks,
    save_blocks,
)
from zeenot.certified.commit import block_digest, header_digest

__all__ = [
    "FORMAT",
    "SignedBlock",
    "Source",
    "block_digest",
    "circuit_inputs",
    "header_digest",
    "load_blocks",
    "parse_blocks",
    "save_blocks",
]
