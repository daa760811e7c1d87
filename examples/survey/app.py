"""A psychometric survey: 64 item responses scored into 8 scales, each score encrypted to a
research authority's key, with the responses checked first.

A participant's client proves that eight published ciphertexts encrypt the scale scores of
responses on the survey's 1–5 scale that pass its attention check (the last item repeats the
third), without revealing responses or scores; only the authority, which holds the secret key,
decrypts (exponential ElGamal on Baby Jubjub, `zeenot.babyjub`), after adding many
participants' ciphertexts if it likes.

Two regions (docs/ir.md "Regions"): the checks and the scoring over 64 responses, where
Groth16's circuit is cheapest, and the encryptions, which the sigma back end proves as two
equations each over the committed scores (a Chaum–Pedersen-style proof) where Groth16 needs
2,721 constraints each. The scores cross committed; the randomness and the key pass on as they
are; the ciphertexts come back public.

    zeenot compile examples/survey/app.py:scored -o out/survey
    zeenot setup out/survey
    zeenot plan examples/survey/app.py:scored --inputs examples/survey/inputs.json
    zeenot prove out/survey --inputs examples/survey/inputs.json --backend auto -o bundle.json
    zeenot verify out/survey bundle.json
"""

from zeenot import Field, MaxSize, Private, Public, check, u8, u32, zk
from zeenot.babyjub import Ciphertext, Point, encrypt

SCALES = 8
ITEMS_PER_SCALE = 8
ITEMS = SCALES * ITEMS_PER_SCALE
ATTENTION = (2, ITEMS - 1)  # the last item asks the third again


def scale_score(responses, k: int) -> u32:  # noqa: ANN001 - a tuple of ITEMS u8
    """Scale k's score: the sum of its items."""
    return sum(u32(responses[k * ITEMS_PER_SCALE + i]) for i in range(ITEMS_PER_SCALE))


@zk
def encrypt_scores(
    scores: Private[tuple[(u32,) * SCALES]],
    rs: Private[tuple[(Field,) * SCALES]],
    authority: Public[Point],
) -> MaxSize[list[Ciphertext], SCALES]:
    """Each scale's score encrypted to the authority (its own randomness)."""
    return [encrypt(scores[k], authority, rs[k]) for k in range(SCALES)]


@zk
def scored(
    responses: Private[tuple[(u8,) * ITEMS]],
    rs: Private[tuple[(Field,) * SCALES]],
    authority: Public[Point],
) -> MaxSize[list[Ciphertext], SCALES]:
    """The responses checked (the 1-5 scale, the attention item), scored per scale, and the
    scores encrypted to the authority."""
    for a in responses:
        check(1 <= a <= 5, "a response is on the 1-5 scale")
    check(responses[ATTENTION[0]] == responses[ATTENTION[1]], "the attention check holds")
    scores = (
        scale_score(responses, 0),
        scale_score(responses, 1),
        scale_score(responses, 2),
        scale_score(responses, 3),
        scale_score(responses, 4),
        scale_score(responses, 5),
        scale_score(responses, 6),
        scale_score(responses, 7),
    )
    return encrypt_scores(scores, rs, authority)
