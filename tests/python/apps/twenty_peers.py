"""20 peers over 2 cells with short deadlines: a round where some peers stall, small enough that
20 peers prove quickly on 2 cores (each region: 20 Poseidon commitments of 3 elements)."""

from zeenot import Field, MaxSize, Private, Public, check, poseidon, u32, zk
from zeenot.runtime.peers import PeerSum

K = 20
N = 2

Vec = tuple[(Field,) * N]


def commit(v: list[Field], salt: Field) -> Field:
    return poseidon(v[0], v[1], salt)


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
    share=share_cell, combine=sum_shares, contribution=cell_vector, peers=K, deadline=30.0
)
