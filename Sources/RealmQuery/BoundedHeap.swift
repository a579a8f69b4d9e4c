/// The `capacity` smallest elements offered so far under `less`, kept in a max-heap so that
/// the largest kept one (`largest`) is the bar a new element must pass: SORT … LIMIT(n) in
/// O(count · log n) without sorting everything.
struct BoundedHeap<Element> {
    let capacity: Int
    let less: (Element, Element) -> Bool
    private(set) var elements: [Element] = []

    init(capacity: Int, less: @escaping (Element, Element) -> Bool) {
        self.capacity = capacity
        self.less = less
        elements.reserveCapacity(max(capacity, 0))
    }

    var isFull: Bool { elements.count >= capacity }

    /// The largest element kept.
    var largest: Element? { elements.first }

    /// Keeps `e` if there is room, or in place of the largest kept element if `e` is smaller.
    mutating func offer(_ e: Element) {
        guard capacity > 0 else { return }
        if elements.count < capacity {
            elements.append(e)
            var c = elements.count - 1
            while c > 0 {
                let p = (c - 1) / 2
                guard less(elements[p], elements[c]) else { break }
                elements.swapAt(p, c)
                c = p
            }
        } else if less(e, elements[0]) {
            elements[0] = e
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var top = i
                if l < elements.count && less(elements[top], elements[l]) { top = l }
                if r < elements.count && less(elements[top], elements[r]) { top = r }
                if top == i { return }
                elements.swapAt(i, top)
                i = top
            }
        }
    }

    /// The elements kept, smallest first.
    func sorted() -> [Element] { elements.sorted(by: less) }
}
