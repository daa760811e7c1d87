"""Waze: a live traffic density map from many drivers' positions, none of which is revealed.

ZØ's Waze case study (seed 000, §7) as peers that secret-share. Each of K drivers knows its
position on a map of N cells (a 4 × 3 grid of 250 m cells) and encodes it as a one-hot vector.
It splits the vector into K additive shares (mod p), one for each driver in the round, and
proves with `share_location` that the shares are well formed: they sum to the one-hot vector of
a cell its private position lies in, and each is bound by a Poseidon commitment. The server
relays each share, sealed, to its driver; every driver checks what it received against the
commitments, sums its K shares and proves the sum with `sum_shares`. The server adds the K
partial sums: the number of drivers in each cell. It sees only commitments, sealed bytes and
sums of uniformly random shares; no driver sees more than one share of any other.

    zeenot serve examples/waze/app.py --db out/waze.db --port 8766 &
    python examples/waze/run.py --server http://127.0.0.1:8766 --peers 20   # 20 processes

`run.py` starts one `zeenot peer` process per driver and compares the server's map with a
plain-Python count of the same positions.
"""

from zeenot import Field, MaxSize, Private, Public, check, poseidon, u32, zk
from zeenot.runtime.peers import PeerSum

K = 20  # drivers in a round
COLS, ROWS = 4, 3
N = COLS * ROWS  # map cells
CELL_M = 250  # metres a side

Vec = tuple[(Field,) * N]


def commit(v: list[Field], salt: Field) -> Field:
    """A hiding, binding commitment to one share."""
    return poseidon(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], salt)


def cell_vector(x: u32, y: u32) -> list[Field]:
    """The one-hot vector of the cell holding (x, y) metres; no proof off the map."""
    check(x < COLS * CELL_M)
    check(y < ROWS * CELL_M)
    cell = (y // CELL_M) * COLS + x // CELL_M
    return [Field(1) if cell == i else Field(0) for i in range(N)]


@zk
def share_location(
    x: Private[u32],
    y: Private[u32],
    masks: Private[tuple[(Vec,) * K]],  # shares 0..K-2 (the last mask is unused)
    salts: Private[tuple[(Field,) * K]],
) -> MaxSize[list[Field], K]:
    """Commitments to K shares that sum to the one-hot vector of the driver's cell."""
    vector = cell_vector(x, y)
    last = [vector[i] - sum(masks[j][i] for j in range(K - 1)) for i in range(N)]
    return [
        commit([masks[j][i] if j < K - 1 else last[i] for i in range(N)], salts[j])
        for j in range(K)
    ]


@zk
def sum_shares(
    shares: Private[tuple[(Vec,) * K]],
    salts: Private[tuple[(Field,) * K]],
    commitments: Public[tuple[(Field,) * K]],
) -> MaxSize[list[Field], N]:
    """The sum of the K shares a driver received, each opening its sender's commitment."""
    for j in range(K):
        check(commit([shares[j][i] for i in range(N)], salts[j]) == commitments[j])
    return [sum(shares[j][i] for j in range(K)) for i in range(N)]


def density_map(total: list[int]) -> dict:
    """The round's result: drivers per cell, as rows of the map."""
    return {
        "kind": "heatmap",
        "title": "drivers per cell",
        "width": COLS,
        "values": total,
        "rows": [total[r * COLS : (r + 1) * COLS] for r in range(ROWS)],
    }


drivers = PeerSum(
    share=share_location,
    combine=sum_shares,
    contribution=cell_vector,
    peers=K,
    result=density_map,
    # twenty peer processes start on a 2-core machine in well over the default minute when it is
    # busy (the test suite runs beside the Rust build): a silent peer costs a round this long
    deadline=300,
)
