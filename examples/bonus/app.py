"""A sales bonus, computed over private sales and encrypted to the payroll authority's key.

An employee's client proves that a published ciphertext encrypts 3 % of the month's sales,
every sale plausible, without revealing the sales or the bonus; only the payroll authority, who
holds the secret key, decrypts it (exponential ElGamal on Baby Jubjub, `zeenot.babyjub`).

The two `@zk` functions are two regions (docs/ir.md "Regions"): the list work, where Groth16's
circuit is cheapest, and the encryption, which the sigma back end proves as two equations over
the committed bonus (a Chaum–Pedersen-style proof) where Groth16 needs 2,721 constraints. The
bonus crosses between them as a Pedersen commitment; the randomness and the key pass on as they
are; the ciphertext comes back public.

    zeenot compile examples/bonus/app.py:encrypted_bonus -o out/bonus
    zeenot setup out/bonus
    zeenot plan examples/bonus/app.py:encrypted_bonus --inputs examples/bonus/inputs.json
    zeenot prove out/bonus --inputs examples/bonus/inputs.json --backend auto -o bundle.json
    zeenot verify out/bonus bundle.json
"""

from zeenot import Field, MaxSize, Private, Public, check, u32, u64, zk
from zeenot.babyjub import Ciphertext, Point, encrypt

MAX_SALES = 64
MAX_SALE_CENTS = 10_000_000  # a single sale above 100,000.00 is implausible
BONUS_PERCENT = 3


@zk
def encrypt_bonus(bonus: Private[u32], r: Private[Field], authority: Public[Point]) -> Ciphertext:
    """The bonus encrypted to the authority (randomness `r`)."""
    return encrypt(bonus, authority, r)


@zk
def encrypted_bonus(
    sales_cents: Private[MaxSize[list[u32], MAX_SALES]],
    r: Private[Field],
    authority: Public[Point],
) -> Ciphertext:
    """3 % of the month's sales, encrypted to the authority."""
    check(all(s <= MAX_SALE_CENTS for s in sales_cents))
    bonus = u32(sum(u64(s) for s in sales_cents) * BONUS_PERCENT // 100)
    return encrypt_bonus(bonus, r, authority)
