"""Prio: Prio3 (VDAF-08) on the `prio` crate and DAP-09's messages and HPKE from
`janus_messages`, at the versions Janus 0.7.145 speaks.

`zeenot.prio.vdaf` (`Vdaf`) runs the VDAF; `zeenot.prio.messages` encodes and decodes DAP
messages and seals and opens HPKE ciphertexts with DAP's application info; `zeenot.prio.afe`
decodes the statistics the standard lacks (mean/variance, OR/AND, MIN/MAX, linear regression),
Prio3 instances over zeenot's own validity circuits. docs/prio.md has the whole picture.
"""

from zeenot.prio.vdaf import (
    NONCE_SIZE,
    VERIFY_KEY_SIZE,
    HpkeError,
    PrioDecodeError,
    ReportRejected,
    Vdaf,
)

__all__ = [
    "NONCE_SIZE",
    "VERIFY_KEY_SIZE",
    "HpkeError",
    "PrioDecodeError",
    "ReportRejected",
    "Vdaf",
]
