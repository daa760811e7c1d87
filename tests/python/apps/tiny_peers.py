"""A Waze-shaped application of 3 peers over 4 cells, small enough for fast protocol tests.
Its phases have a short deadline and a round may finish with 2 peers (a test setting: with 2,
each peer learns the other's vector from the sum)."""

from zeenot import Field, MaxSize, Private, Public, check, poseidon, u32, zk
from zeenot.runtime.peers import PeerSum

K = 3
N = 4

Vec = tuple[(Field,) * N]


def commit(v: list[Field], salt: Field) -> Field:
    return poseidon(v[0], v[1], v[2], v[3], salt)


def cell_vector(cell: u32) -> list[Field]:
    check(cell < N)
    return [Field(1) if cell == i else Field(0) for i in range(N)]


@zk
def share_cell(
    cell: Private[u32], masks: Private[tuple[(Vec,) * K]], salts: Private[tuple[(Field,) * K]]
) -> MaxSize[list[Field], K]:
    vector = cell_vector(cell)
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
    for j in range(K):
        check(commit([shares[j][i] for i in range(N)], salts[j]) == commitments[j])
    return [sum(shares[j][i] for j in range(K)) for i in range(N)]


cells = PeerSum(
    share=share_cell,
    combine=sum_shares,
    contribution=cell_vector,
    peers=K,
    deadline=6.0,
    min_peers=2,
)
