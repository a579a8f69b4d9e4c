/// How the search-index writer reaches the nodes of a tree of `MutableNode`s: children are
/// loaded on first use, and nodes that leave the tree are released. A write transaction
/// loads from its committed file and releases committed space; a tree built in memory has
/// every child loaded already and nothing to release.
public protocol IndexNodeLoader {
    /// The child in slot `slot` of `parent`, loaded on first use; nil for 0 or a tagged value.
    /// `unsigned`: the child is an `ArrayUnsigned` (B+tree offsets).
    func child(_ parent: MutableNode, _ slot: Int, unsigned: Bool) throws(FormatError) -> MutableNode?
    /// `node` and everything below it leave the tree.
    func releaseSubtree(_ node: MutableNode) throws(FormatError)
}

extension WriteTransaction: IndexNodeLoader {}

/// Trees that live entirely in memory (new indexes, tests): children are the loaded ones.
public struct InMemoryIndexNodes: IndexNodeLoader {
    public init() {}
    public func child(_ parent: MutableNode, _ slot: Int, unsigned: Bool) -> MutableNode? { parent.loadedChild(slot) }
    public func releaseSubtree(_ node: MutableNode) {}
}

/// A loader made of a closure, for callers with their own node source. The closure is not
/// told which children are `ArrayUnsigned`: it must load B+tree offsets (slot 0 of a
/// duplicate list's inner nodes) unsigned itself, or lists of more than `maxNodeSize` keys
/// in the general form may be refused as corrupt.
public struct ClosureIndexNodes: IndexNodeLoader {
    let load: (MutableNode, Int) throws(FormatError) -> MutableNode?
    let release: (MutableNode) throws(FormatError) -> Void

    public init(load: @escaping (MutableNode, Int) throws(FormatError) -> MutableNode?,
                release: @escaping (MutableNode) throws(FormatError) -> Void = { _ in }) {
        self.load = load
        self.release = release
    }

    public func child(_ parent: MutableNode, _ slot: Int, unsigned: Bool) throws(FormatError) -> MutableNode? {
        try load(parent, slot)
    }

    public func releaseSubtree(_ node: MutableNode) throws(FormatError) { try release(node) }
}
