//! Statements: linear relations between public points and secret scalars, composed with AND
//! and OR.
//!
//! A statement names secrets `x_0 … x_{n-1}` (scalars modulo `l`), public elements
//! `P_0 … P_{m-1}` (subgroup points) and equations `P_lhs = Σ x_s·P_e`. A tree of `And`/`Or`
//! nodes over the equations says which must hold. A secret used in two equations is the same
//! value in both: that is how equality across statements, products of committed values and
//! linked ciphertexts are expressed.
//!
//! **Scopes.** The root, and every child of an `Or`, opens a *scope*: its equations are proved
//! with one challenge (the root's, or the branch's share of its `Or`'s challenge). A secret's
//! response is tied to one challenge, so every equation that uses a secret must lie in the same
//! scope; [`Builder::build`] rejects a secret shared across OR branches, or between an OR
//! branch and the rest. (To say "the same value" across branches, commit to it outside the OR
//! and reason about the commitment inside.)

use serde::{Deserialize, Serialize};
use zeenot_crypto::{Point, Transcript};
use zeroize::Zeroize;

use crate::error::{Error, Result};

/// At most this many secrets, elements, equations, terms and tree nodes in one statement: a
/// bound checked before any work on untrusted statements.
pub const MAX_ITEMS: usize = 1 << 22;

/// A secret scalar of a statement (an index into its secrets).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Secret(pub usize);

/// A public element of a statement (an index into its points).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Element(pub usize);

/// `elements[lhs] = Σ secret·elements[base]` over `terms`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Equation {
    /// The image.
    pub lhs: Element,
    /// `(secret, base)` pairs.
    pub terms: Vec<(Secret, Element)>,
}

/// The composition tree over equations (each equation appears exactly once).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Node {
    /// One equation, by index.
    Eq(usize),
    /// Every child holds.
    And(Vec<Node>),
    /// At least one child holds (which one stays hidden).
    Or(Vec<Node>),
}

impl Node {
    /// `And` of the children.
    pub fn and(children: impl IntoIterator<Item = Node>) -> Node {
        Node::And(children.into_iter().collect())
    }

    /// `Or` of the children.
    pub fn or(children: impl IntoIterator<Item = Node>) -> Node {
        Node::Or(children.into_iter().collect())
    }
}

/// An `Or` node as the prover and verifier walk it: the scope it sits in and the scopes its
/// children open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct OrInfo {
    pub parent: usize,
    pub children: Vec<usize>,
}

/// Where each equation and secret lives. Scopes are numbered in preorder (a child's number
/// exceeds its parent's), and `ors` lists the `Or` nodes in preorder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Layout {
    pub eq_scope: Vec<usize>,
    pub secret_scope: Vec<Option<usize>>,
    pub n_scopes: usize,
    pub ors: Vec<OrInfo>,
}

impl Layout {
    /// The number of challenges a proof carries: all but the last child's of every `Or`.
    pub fn n_challenges(&self) -> usize {
        self.ors.iter().map(|o| o.children.len() - 1).sum()
    }
}

/// A validated statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    secret_names: Vec<String>,
    element_names: Vec<String>,
    elements: Vec<Point>,
    equations: Vec<Equation>,
    root: Node,
    pub(crate) layout: Layout,
}

/// Builds a [`Statement`].
#[derive(Clone, Debug, Default)]
pub struct Builder {
    secret_names: Vec<String>,
    element_names: Vec<String>,
    elements: Vec<Point>,
    equations: Vec<Equation>,
}

impl Builder {
    /// An empty statement.
    pub fn new() -> Self {
        Self::default()
    }

    /// A new secret scalar.
    pub fn secret(&mut self, name: impl Into<String>) -> Secret {
        self.secret_names.push(name.into());
        Secret(self.secret_names.len() - 1)
    }

    /// A new public element.
    pub fn element(&mut self, name: impl Into<String>, point: Point) -> Element {
        self.element_names.push(name.into());
        self.elements.push(point);
        Element(self.elements.len() - 1)
    }

    /// The equation `lhs = Σ secret·base`, as a leaf to place in the tree.
    pub fn equation(&mut self, lhs: Element, terms: &[(Secret, Element)]) -> Node {
        self.equations.push(Equation { lhs, terms: terms.to_vec() });
        Node::Eq(self.equations.len() - 1)
    }

    /// The statement with this tree.
    pub fn build(self, root: Node) -> Result<Statement> {
        Statement::new(self.secret_names, self.element_names, self.elements, self.equations, root)
    }

    /// The statement that every equation added so far holds.
    pub fn build_and(self) -> Result<Statement> {
        let root = Node::And((0..self.equations.len()).map(Node::Eq).collect());
        self.build(root)
    }
}

impl Statement {
    /// Validates and assembles a statement.
    pub fn new(
        secret_names: Vec<String>,
        element_names: Vec<String>,
        elements: Vec<Point>,
        equations: Vec<Equation>,
        root: Node,
    ) -> Result<Self> {
        let bad = |m: String| Err(Error::Statement(m));
        if element_names.len() != elements.len() {
            return bad("element names and elements differ in number".into());
        }
        let n_terms: usize = equations.iter().map(|e| e.terms.len()).sum();
        for (what, n) in [
            ("secrets", secret_names.len()),
            ("elements", elements.len()),
            ("equations", equations.len()),
            ("terms", n_terms),
        ] {
            if n > MAX_ITEMS {
                return bad(format!("{n} {what}: at most {MAX_ITEMS}"));
            }
        }
        if equations.is_empty() {
            return bad("no equations".into());
        }
        for (i, eq) in equations.iter().enumerate() {
            if eq.lhs.0 >= elements.len() {
                return bad(format!("equation {i}: element {} does not exist", eq.lhs.0));
            }
            if eq.terms.is_empty() {
                return bad(format!("equation {i} has no terms"));
            }
            for (s, e) in &eq.terms {
                if s.0 >= secret_names.len() {
                    return bad(format!("equation {i}: secret {} does not exist", s.0));
                }
                if e.0 >= elements.len() {
                    return bad(format!("equation {i}: element {} does not exist", e.0));
                }
            }
        }
        let layout = layout(&root, &equations, secret_names.len(), &secret_names)?;
        Ok(Statement { secret_names, element_names, elements, equations, root, layout })
    }

    /// The secrets' names.
    pub fn secret_names(&self) -> &[String] {
        &self.secret_names
    }

    /// The public elements.
    pub fn elements(&self) -> &[Point] {
        &self.elements
    }

    /// The elements' names.
    pub fn element_names(&self) -> &[String] {
        &self.element_names
    }

    /// The equations.
    pub fn equations(&self) -> &[Equation] {
        &self.equations
    }

    /// The composition tree.
    pub fn root(&self) -> &Node {
        &self.root
    }

    /// Whether equation `i` holds for these (possibly partial) secrets.
    pub(crate) fn equation_holds(&self, i: usize, witness: &[Option<zeenot_crypto::Scalar>]) -> bool {
        let eq = &self.equations[i];
        let mut bases = Vec::with_capacity(eq.terms.len());
        let mut scalars = Vec::with_capacity(eq.terms.len());
        let mut known = true;
        for (s, e) in &eq.terms {
            // A secret the prover cannot open (an OR branch that is false) still costs its
            // multiplication, so that the check's time does not show which branch is true.
            let x = witness.get(s.0).copied().flatten();
            known &= x.is_some();
            scalars.push(x.unwrap_or_else(ark_ff::Zero::zero));
            bases.push(self.elements[e.0]);
        }
        let holds = Point::msm_ct(&bases, &scalars) == self.elements[eq.lhs.0];
        scalars.zeroize();
        known & holds
    }

    /// Absorbs the whole statement: sizes, every element, every equation and the tree's shape
    /// (names are labels for people and are not bound).
    pub fn absorb<T: Transcript>(&self, t: &mut T) {
        let sizes = [self.secret_names.len(), self.elements.len(), self.equations.len()];
        t.append_message(b"sigma/sizes", &u64s(sizes.iter().copied()));
        let encoded: Vec<u8> = Point::encode_batch(&self.elements).concat();
        t.append_message(b"sigma/elements", &encoded);
        let mut eqs = Vec::new();
        for eq in &self.equations {
            eqs.push(eq.lhs.0);
            eqs.push(eq.terms.len());
            for (s, e) in &eq.terms {
                eqs.push(s.0);
                eqs.push(e.0);
            }
        }
        t.append_message(b"sigma/equations", &u64s(eqs.into_iter()));
        let mut tree = Vec::new();
        shape(&self.root, &mut tree);
        t.append_message(b"sigma/tree", &u64s(tree.into_iter()));
    }
}

fn u64s(values: impl Iterator<Item = usize>) -> Vec<u8> {
    values.flat_map(|v| (v as u64).to_le_bytes()).collect()
}

/// Preorder: `Eq i` as `0, i`; `And`/`Or` of `k` children as `1, k` / `2, k`.
fn shape(node: &Node, out: &mut Vec<usize>) {
    match node {
        Node::Eq(i) => out.extend([0, *i]),
        Node::And(cs) | Node::Or(cs) => {
            out.extend([if matches!(node, Node::And(_)) { 1 } else { 2 }, cs.len()]);
            for c in cs {
                shape(c, out);
            }
        }
    }
}

fn layout(root: &Node, equations: &[Equation], n_secrets: usize, names: &[String]) -> Result<Layout> {
    let mut l = Layout {
        eq_scope: vec![usize::MAX; equations.len()],
        secret_scope: vec![None; n_secrets],
        n_scopes: 1,
        ors: Vec::new(),
    };
    let mut nodes = 0usize;
    walk(root, 0, &mut l, &mut nodes)?;
    if let Some(i) = l.eq_scope.iter().position(|&s| s == usize::MAX) {
        return Err(Error::Statement(format!("equation {i} is not in the tree")));
    }
    for (i, eq) in equations.iter().enumerate() {
        for (s, _) in &eq.terms {
            let scope = l.eq_scope[i];
            match l.secret_scope[s.0] {
                None => l.secret_scope[s.0] = Some(scope),
                Some(prev) if prev == scope => {}
                Some(_) => {
                    return Err(Error::Statement(format!(
                        "secret {:?} is used in two different OR branches (or inside and outside an OR); \
                         commit to it outside the OR and refer to the commitment instead",
                        names[s.0]
                    )))
                }
            }
        }
    }
    if let Some(i) = l.secret_scope.iter().position(Option::is_none) {
        return Err(Error::Statement(format!("secret {:?} is not used in any equation", names[i])));
    }
    Ok(l)
}

fn walk(node: &Node, scope: usize, l: &mut Layout, nodes: &mut usize) -> Result<()> {
    *nodes += 1;
    if *nodes > MAX_ITEMS {
        return Err(Error::Statement(format!("more than {MAX_ITEMS} tree nodes")));
    }
    match node {
        Node::Eq(i) => {
            let slot = l.eq_scope.get_mut(*i).ok_or_else(|| {
                Error::Statement(format!("tree refers to equation {i}, which does not exist"))
            })?;
            if *slot != usize::MAX {
                return Err(Error::Statement(format!("equation {i} appears twice in the tree")));
            }
            *slot = scope;
        }
        Node::And(cs) => {
            if cs.is_empty() {
                return Err(Error::Statement("an AND with no children".into()));
            }
            for c in cs {
                walk(c, scope, l, nodes)?;
            }
        }
        Node::Or(cs) => {
            if cs.len() < 2 {
                return Err(Error::Statement("an OR needs at least two children".into()));
            }
            let at = l.ors.len();
            l.ors.push(OrInfo { parent: scope, children: Vec::new() });
            for c in cs {
                let child = l.n_scopes;
                l.n_scopes += 1;
                l.ors[at].children.push(child);
                walk(c, child, l, nodes)?;
            }
        }
    }
    Ok(())
}
