"""What a source signs: a Poseidon commitment to a block of records and its header.

Written in the language's subset, so the same functions run in plain Python (the source signs,
the user checks) and inline into `@zk` code (the circuit recomputes the commitment before it
checks the one signature of the block).

The layout (version 1):

    header = poseidon(DOMAIN, source_id, user.x, user.y, period, count, bits)
    words  = the block's `count` values, `bits` wide, packed `248 // bits` to a Field word
             (little end first: value j of a word is multiplied by 2^(bits·j))
    digest = h, where h starts at `header` and absorbs the words 15 at a time
             (h = poseidon(h, w0, …, w14); the last group is padded with zeros)

The header binds the block to its source, to the user it was issued to (her public key) and
to a period, and fixes the number of values and their width: a block moved to another user or
period, cut short, reordered or altered no longer has the source's signature. Packing is
injective because every value is below 2^bits (the signer checks it; in the circuit the
values' types are `bits` wide), and the count in the header makes the zero padding
unambiguous.
"""

from __future__ import annotations

from zeenot.types import Field, poseidon

# "zeenot/certified/v1" as a big-endian integer: a block digest is never another hash's input
DOMAIN = 0x7A65656E6F742F6365727469666965642F7631
WORD_BITS = 248  # a packed word stays below the BN254 scalar field's modulus
ABSORB = 15  # words per Poseidon call (Poseidon takes at most 16 inputs: h and 15 words)


def per_word(bits: int) -> int:
    """How many `bits`-wide values one Field word holds."""
    return WORD_BITS // bits


def header_digest(source_id, user, period, count: int, bits: int) -> Field:
    """The header's hash: source, the user's public key (a Baby Jubjub point), period, shape."""
    return poseidon(
        Field(DOMAIN),
        Field(source_id),
        user.x,
        user.y,
        Field(period),
        Field(count),
        Field(bits),
    )


def pack(get, start: int, count: int, bits: int) -> Field:
    """Values `get(start)`, …, `get(start + count - 1)` packed into one word."""
    w = Field(0)
    for j in range(count):
        w = w + Field(get(start + j)) * Field(2 ** (bits * j))
    return w


def words_of(get, n: int, bits: int):
    """The packed words of the values `get(0)`, …, `get(n - 1)` (`n` a constant)."""
    k = per_word(bits)
    return [pack(get, i, min(k, n - i), bits) for i in range(0, n, k)]


def word_at(words, i: int) -> Field:
    return words[i] if i < len(words) else Field(0)


def absorb(h: Field, words) -> Field:
    """The hash chain over the words, 15 per Poseidon call."""
    for i in range(0, len(words), ABSORB):
        h = poseidon(
            h,
            word_at(words, i),
            word_at(words, i + 1),
            word_at(words, i + 2),
            word_at(words, i + 3),
            word_at(words, i + 4),
            word_at(words, i + 5),
            word_at(words, i + 6),
            word_at(words, i + 7),
            word_at(words, i + 8),
            word_at(words, i + 9),
            word_at(words, i + 10),
            word_at(words, i + 11),
            word_at(words, i + 12),
            word_at(words, i + 13),
            word_at(words, i + 14),
        )
    return h


def block_digest(source_id, user, period, get, n: int, bits: int) -> Field:
    """The message the source signs for a block of `n` values `get(0..n-1)`, `bits` wide."""
    return absorb(header_digest(source_id, user, period, n, bits), words_of(get, n, bits))
