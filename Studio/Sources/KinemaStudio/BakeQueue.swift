import Dispatch

/// Runs bakes (a millisecond of arithmetic each) first come, first served on GCD's worker threads,
/// about one per core. Run on Swift's cooperative pool, the latest requests could overtake the
/// earliest: under load, a few waited several times as long as the rest.
final class BakeQueue: Sendable {
    private let queue = DispatchQueue(label: "kinema-studio.bakes", qos: .userInitiated, attributes: .concurrent)

    func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }
}
