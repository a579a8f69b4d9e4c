import Dispatch
import RealmFormat
import RealmObjects
import Synchronization

/// Reads a class's objects on a second thread, a cluster leaf (up to 256 objects) at a time,
/// while the caller writes the leaves read before: decoding the realm and inserting into
/// SQLite overlap, so on two cores an export takes about as long as the slower of the two.
///
/// While it runs only the reading thread touches the realm: the caller's `body` must not read
/// the file (`SQLiteExporter` resolves the link targets of such a class before).
enum LeafPipeline {
    /// At most this many leaves wait between the threads.
    static let depth = 16

    static func forEachLeaf(of objectClass: ObjectClass, in file: RealmFile,
                            _ body: (_ keys: [Int64], _ columns: [[Value]]) throws -> Void) throws {
        let channel = Channel()
        let reader = ReaderTask(file: file, objectClass: objectClass)
        DispatchQueue.global().async {
            defer { channel.producerFinished() }
            do {
                try reader.file.forEachLeaf(of: reader.objectClass) { keys, columns in
                    guard channel.send(.leaf(keys, columns)) else { throw Cancelled() }
                }
                _ = channel.send(.end)
            } catch is Cancelled {
                return
            } catch {
                _ = channel.send(.failed(error as? FormatError ?? .corrupt(offset: 0, reason: "\(error)")))
            }
        }
        // Whatever happens here, the reader has stopped before the file is used again.
        defer { channel.cancelAndWait() }
        while true {
            switch channel.receive() {
            case let .leaf(keys, columns): try body(keys, columns)
            case .end: return
            case let .failed(error): throw error
            }
        }
    }

    private struct Cancelled: Error {}

    /// The file and class, handed to the reading thread. Unchecked: while the pipeline runs,
    /// the reading thread is the only one that touches them.
    private struct ReaderTask: @unchecked Sendable {
        let file: RealmFile
        let objectClass: ObjectClass
    }

    private enum Message: Sendable {
        case leaf([Int64], [[Value]])
        case end
        case failed(FormatError)
    }

    /// A bounded queue between one sender and one receiver.
    private final class Channel: Sendable {
        private struct State {
            var queue: [Message] = []
            var cancelled = false
        }

        private let state = Mutex(State())
        private let items = DispatchSemaphore(value: 0)
        private let slots = DispatchSemaphore(value: LeafPipeline.depth)
        private let finished = DispatchSemaphore(value: 0)

        /// false: the receiver gave up; stop.
        func send(_ message: Message) -> Bool {
            slots.wait()
            let accepted = state.withLock { s in
                guard !s.cancelled else { return false }
                s.queue.append(message)
                return true
            }
            if accepted { items.signal() }
            return accepted
        }

        func receive() -> Message {
            items.wait()
            let message = state.withLock { $0.queue.removeFirst() }
            slots.signal()
            return message
        }

        func producerFinished() { finished.signal() }

        /// Stops a sender that may be waiting for a slot, and waits until it has returned.
        func cancelAndWait() {
            state.withLock { $0.cancelled = true }
            slots.signal()
            finished.wait()
            // Slots of leaves never received go back: libdispatch traps when a semaphore is
            // released below its initial value.
            for _ in 0..<state.withLock({ $0.queue.count }) { slots.signal() }
        }
    }
}
