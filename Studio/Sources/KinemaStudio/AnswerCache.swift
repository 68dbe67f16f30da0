import Foundation

/// The latest answers by request: a page asks again for a motion it has shown (a slider moved
/// back, a tab reopened, a link shared), and a bake always gives the same answer for the same flags.
final class AnswerCache: @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [String: String] = [:]
    /// Keys in the order they were stored; the oldest goes first when the cache is full.
    private var order: [String] = []
    let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    subscript(key: String) -> String? {
        lock.withLock { answers[key] }
    }

    func store(_ answer: String, for key: String) {
        lock.withLock {
            guard answers.updateValue(answer, forKey: key) == nil else { return }
            order.append(key)
            if order.count > capacity { answers[order.removeFirst()] = nil }
        }
    }
}
