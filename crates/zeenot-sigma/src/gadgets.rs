//! Statements built from linear relations: the pieces ZQL's back-end and hand-written
//! protocols use.
