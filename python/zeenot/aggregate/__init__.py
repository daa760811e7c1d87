"""What the aggregation systems share: one statistic query and one result type
(`zeenot.aggregate.query`), used by the collective authority (`zeenot.cothority`) and by Prio
(`zeenot.prio`)."""
