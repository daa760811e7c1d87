# ruff: noqa
from zeenot import Field, MaxSize, Private, Public, check, poseidon, u32, zk

# case: {"xs": [1, 2], "salt": "0"} -> [17525667638260400994329361135304146970274213890416440938331684485841550124768, 5658995008731424597346952714855453811962300583665875748114894496323438200300]
# case: {"xs": [], "salt": "5"} -> [6594382653389392014969202529000956230670542180539887049336368219707393814376, 5]


@zk
def main(xs: Private[MaxSize[list[u32], 3]], salt: Private[Field]) -> tuple[Field, Field]:
    """A salted commitment to a private list, and a hash chain over its elements."""
    chain = salt
    for x in xs:
        chain = poseidon(chain + 1, Field(x)) if x != 0 else chain
    return poseidon(Field(u32(len(xs))), salt), chain
