// Helpers shared by the test targets: seeded randomness, grids, finite differences, the
// package's files.
import Foundation

/// A seeded generator, so random test cases are the same on every run.
public struct SplitMix64: RandomNumberGenerator {
    public var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// `count` evenly spaced points from `a` to `b`, both included.
public func grid(_ a: Double, _ b: Double, count: Int) -> [Double] {
    (0..<count).map { a + (b - a) * Double($0) / Double(count - 1) }
}

/// The 6th-order central difference of `f` at `t`: first derivative, error O(h⁶).
public func firstDerivative(_ f: (Double) -> Double, at t: Double, h: Double) -> Double {
    (-f(t - 3 * h) + 9 * f(t - 2 * h) - 45 * f(t - h) + 45 * f(t + h) - 9 * f(t + 2 * h) + f(t + 3 * h)) / (60 * h)
}

/// The 6th-order central difference of `f` at `t`: second derivative, error O(h⁶).
public func secondDerivative(_ f: (Double) -> Double, at t: Double, h: Double) -> Double {
    (2 * f(t - 3 * h) - 27 * f(t - 2 * h) + 270 * f(t - h) - 490 * f(t) + 270 * f(t + h) - 27 * f(t + 2 * h)
        + 2 * f(t + 3 * h)) / (180 * h * h)
}

/// The package's root: the nearest folder above this file that holds Package.swift.
public func packageRoot() -> URL {
    var root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) && root.path != "/"
    {
        root = root.deletingLastPathComponent()
    }
    return root
}

/// The ```swift blocks of a document, `path` relative to the package's root.
public func documentedSnippets(in path: String) throws -> [String] {
    let text = try String(contentsOf: packageRoot().appendingPathComponent(path), encoding: .utf8)
    return text.components(separatedBy: "```swift\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
}
