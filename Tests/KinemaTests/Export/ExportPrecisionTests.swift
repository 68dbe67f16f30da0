import Foundation
import Testing

@testable import Kinema

/// Exported numbers are rounded to the digits the bound needs, and values map onto a layer's
/// units. Each export is read back as a player would and measured against the closed form.
@Suite struct ExportPrecisionTests {
    /// The closed-form easings of the players' table, each at a tolerance.
    static let easings: [(String, Double)] = [
        ("damped-cosine(5,30)", 1e-3), ("bounce-out", 1e-3), ("circ-in-out", 1e-3), ("cubic-in-out", 1e-5),
        ("back-in-out", 1e-4), ("lockwood-bounce-out", 1e-3)
    ]

    static func bake(_ name: String, _ tolerance: Double) throws -> (KeyframeFit, MotionSource) {
        let source = try MotionSource(easing: Easing(name: name), duration: 1)
        return (try KeyframeBaker.bake(source, tolerance: tolerance), source)
    }

    /// Max |animation − f| at 20,001 times.
    static func error(_ animation: KeyframeAnimation, _ f: (Double) -> Double) -> Double {
        (0...20_000).map { i -> Double in
            let t = Double(i) / 20_000
            return abs(animation.value(at: t)[0] - f(t * animation.duration))
        }.max() ?? .nan
    }

    /// The JSON export read back: its values, key times and controls as a player takes them.
    static func readBack(_ text: String) throws -> (KeyframeAnimation, stated: Double) {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let functions = try (json["timingFunctions"] as! [[Double]]).map {
            try CubicBezierTimingFunction(x1: $0[0], y1: $0[1], x2: $0[2], y2: $0[3])
        }
        let animation = try KeyframeAnimation(
            values: (json["values"] as! [Double]).map { [$0] }, keyTimes: json["keyTimes"] as? [Double],
            timingFunctions: functions, duration: json["duration"] as! Double)
        return (animation, json["maxError"] as! Double)
    }

    /// Rounded to the bound, a JSON export is within its stated error of the closed form, and
    /// the stated error within the bound; it is at most 60 % of the full-precision export.
    @Test(arguments: easings.map(\.0))
    func roundedJSONPlaysWithinItsBound(_ name: String) throws {
        let tolerance = Self.easings.first { $0.0 == name }!.1
        let (fit, source) = try Self.bake(name, tolerance)
        let bound = try #require(fit.bound)
        let text = KeyframeExport.json(fit)
        let (played, stated) = try Self.readBack(text)
        let measured = Self.error(played, source.value)
        #expect(measured <= stated * (1 + 1e-9) && stated <= bound * (1 + 1e-6), "\(measured) \(stated) \(bound)")
        var full = fit
        full.rounding = .none
        let fullText = KeyframeExport.json(full)
        #expect(
            Double(text.utf8.count) <= 0.75 * Double(fullText.utf8.count),
            "\(text.utf8.count) of \(fullText.utf8.count)")
        // Full precision is every number as it is: the values read back bit for bit (by Swift's
        // parser: Foundation's JSON reader may be an ulp off).
        let printed = fullText.split(separator: "\"values\": [")[1].split(separator: "]")[0].split(separator: ", ")
        #expect(printed.map { Double($0) } == fit.animation.values.map { $0[0] })
    }

    /// No format prints a number of more than 12 decimals, or a signed zero.
    @Test func everyFormatPrintsRoundedNumbers() throws {
        let (fit, _) = try Self.bake("damped-cosine(5,30)", 1e-3)
        let source = try MotionSource(easing: Easing(name: "damped-cosine(5,30)"), duration: 1)
        let linear = try CSSLinearEasing(fitting: source, tolerance: 1e-3)
        let texts = [
            KeyframeExport.json(fit), KeyframeExport.css(fit), KeyframeExport.lottie([fit]),
            KeyframeExport.lottieProperty(fit), KeyframeExport.swift(fit), KeyframeExport.swiftUI(fit), linear.css
        ]
        let long = try Regex("[0-9]\\.[0-9]{13,}"), negativeZero = try Regex("-0(\\.0*)?[^.0-9]")
        for text in texts {
            #expect(text.firstMatch(of: long) == nil, "\(text.prefix(400))")
            #expect(text.firstMatch(of: negativeZero) == nil, "\(text.prefix(400))")
        }
    }

    /// SwiftUI's durations add up: each is the difference of two rounded times, so the keyframes
    /// end at the duration whatever their count.
    @Test func swiftUIDurationsAddUpToTheDuration() throws {
        let source = try MotionSource(spring: .bouncy, from: 0, to: 300)
        let fit = try KeyframeBaker.bake(source, tolerance: 1e-4)
        let text = KeyframeExport.swiftUI(fit)
        let durations = text.split(separator: "duration: ").dropFirst().map {
            Decimal(string: String($0.prefix { $0 != "," }))!
        }
        #expect(durations.count == fit.keyframeCount - 1)
        let total = durations.reduce(0, +)
        let expected = Decimal(
            string: KeyframeExport.rounded(fit.animation.duration, decimals: fit.precision.timeDecimals))!
        #expect(total == expected, "\(total) vs \(expected)")
    }

    /// The rounding is as coarse as the bound allows: a bake ten times looser prints fewer digits.
    @Test func decimalsFollowTheTolerance() throws {
        let fine = try Self.bake("damped-cosine(5,30)", 1e-5).0.precision
        let coarse = try Self.bake("damped-cosine(5,30)", 1e-3).0.precision
        #expect(fine.valueDecimals > coarse.valueDecimals && fine.timeDecimals > coarse.timeDecimals)
        #expect(coarse.valueDecimals <= 6 && coarse.timeDecimals <= 8)
    }

    /// A mapping moves every value and keeps every segment's timing: the mapped fit plays
    /// offset + scale × the closed form, within scale × the bound.
    @Test func mappedFitPlaysTheMappedMotion() throws {
        let (fit, source) = try Self.bake("bounce-out", 1e-3)
        for mapping in [try ValueMapping(from: 20, to: 320), try ValueMapping(scale: -2.5, offset: 1), .percent] {
            let mapped = try fit.mapped(mapping)
            #expect(mapped.animation.timingFunctions == fit.animation.timingFunctions)
            #expect(mapped.animation.keyTimes == fit.animation.keyTimes)
            let (played, stated) = try Self.readBack(KeyframeExport.json(mapped))
            let measured = Self.error(played) { mapping(source.value(at: $0)) }
            let bound = abs(mapping.scale) * (fit.bound ?? .nan)
            #expect(
                measured <= stated * (1 + 1e-9) && stated <= bound * (1 + 1e-6), "\(mapping): \(measured) \(stated)")
        }
        #expect(abs(ValueMapping.degrees(Double.pi) - 180) <= 1e-12 && ValueMapping.percent(0.25) == 25)
    }

    /// A mapping that would lose the values is refused, naming the value and the rule.
    @Test func badMappingsAreRefused() {
        #expect(throws: KinemaError.self) { try ValueMapping(scale: 0) }
        #expect(throws: KinemaError.self) { try ValueMapping(scale: .nan) }
        #expect(throws: KinemaError.self) { try ValueMapping(scale: 1, offset: .infinity) }
        #expect(throws: KinemaError.self) { try ValueMapping(from: 3, to: 3) }
        #expect(throws: KinemaError.self) { try ValueMapping(from: -1e308, to: 1e308) }
        do {
            _ = try ValueMapping(scale: 0)
        } catch {
            #expect("\(error)".contains("scale") && "\(error)".contains("non-zero"), "\(error)")
        }
    }

    /// Rounded exact decimals: ticks written out, never through a double.
    @Test func decimalsAreWrittenExactly() {
        #expect(
            KeyframeExport.decimal(1250, decimals: 3) == "1.25" && KeyframeExport.decimal(-5, decimals: 3) == "-0.005")
        #expect(KeyframeExport.decimal(0, decimals: 4) == "0" && KeyframeExport.decimal(7, decimals: 0) == "7")
        #expect(KeyframeExport.upward(0.00012341) == "0.000124" && KeyframeExport.upward(1234.1) == "1240")
    }
}
