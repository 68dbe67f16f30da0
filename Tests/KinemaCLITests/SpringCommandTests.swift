import Foundation
import Testing

struct SpringCommandTests {
    @Test func swiftUIsDocumentedExample() throws {
        let json = try CLI.json(["spring", "--response", "0.5", "--bounce", "0.3", "--format", "json"])
        #expect(abs(json["stiffness"] as! Double - 157.91) < 0.005)
        #expect(abs(json["damping"] as! Double - 17.59) < 0.005)
        #expect(json["regime"] as! String == "underdamped")
    }

    @Test func massStiffnessDampingGivesResponseAndBounce() throws {
        let json = try CLI.json(["spring", "--mass", "1", "--stiffness", "100", "--damping", "10", "--format", "json"])
        #expect(abs(json["response"] as! Double - 0.628) < 0.0005)
        #expect(abs(json["bounce"] as! Double - 0.5) < 1e-12)
        #expect(abs(json["undampedFrequency"] as! Double - 10) < 1e-12)
        #expect(abs(json["dampedFrequency"] as! Double - sqrt(75)) < 1e-12)
        #expect(abs(json["decayRate"] as! Double - 5) < 1e-12)
    }

    @Test func origamiDefaultIsRebounds() throws {
        let json = try CLI.json(["spring", "--origami-tension", "40", "--origami-friction", "7", "--format", "json"])
        #expect(abs(json["tension"] as! Double - 230.2) < 1e-9)
        #expect(abs(json["friction"] as! Double - 22) < 1e-9)
    }

    @Test func dampedCosineIsTheSeedsSpring() throws {
        let json = try CLI.json(["spring", "--damped-cosine", "5,30", "--format", "json"])
        #expect(json["stiffness"] as! Double == 925)
        #expect(json["damping"] as! Double == 10)
        #expect(json["dampedCosineA"] as! Double == 5)
        #expect(abs(json["dampedCosineB"] as! Double - 30) < 1e-12)
    }

    /// The settling duration printed is the last time the motion leaves the ε band, by brute force
    /// on the closed-form motion (here The damped cosine, whose closed form is independent).
    @Test func settlingDurationOfTheSeedsSpring() throws {
        let json = try CLI.json(["spring", "--damped-cosine", "5,30", "--format", "json"])
        let settle = json["settlingDuration"] as! Double
        var last = 0.0
        for i in 0...600_000 {
            let t = Double(i) * 5e-6
            if abs(exp(-5 * t) * cos(30 * t)) > 0.001 { last = t }
        }
        #expect(abs(settle - last) <= 1e-5)
    }

    @Test func textFormatListsEveryField() throws {
        let result = try CLI.run(["spring", "--stiffness", "100", "--damping-ratio", "1"])
        let names = result.stdout.split(separator: "\n").map { $0.split(separator: " ").first.map(String.init) ?? "" }
        #expect(
            names == [
                "mass", "stiffness", "damping", "dampingRatio", "response", "bounce", "tension", "friction",
                "bounciness", "speed", "origamiTension", "origamiFriction", "undampedFrequency",
                "dampedFrequency", "decayRate", "dampedCosineA", "dampedCosineB", "motionDuration", "motionBounce",
                "motionVisualDuration", "settlingDuration", "regime"
            ])
        #expect(result.stdout.contains("critical"))
    }

    /// Motion's dialects through the CLI: findSpring's spring for 0.8 s / 0.25 (Motion's own
    /// k = 137.41358694003588, c = 17.583531232806475), read back both ways; Motion's flags do
    /// not mix with SwiftUI's, and a duration outside Motion's range is refused by name.
    @Test func motionDialects() throws {
        let text = try CLI.run(["spring", "--motion-duration", "0.8", "--motion-bounce", "0.25", "--format", "json"])
            .stdout
        let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
        #expect(abs((json["stiffness"] as! Double) - 137.41358694003588) <= 1e-6 * 137.4)
        #expect(abs((json["damping"] as! Double) - 17.583531232806475) <= 1e-6 * 17.6)
        #expect(
            abs((json["motionDuration"] as! Double) - 0.8) <= 1e-9
                && abs((json["motionBounce"] as! Double) - 0.25) <= 1e-12)
        let visual = try CLI.run([
            "spring", "--motion-visual-duration", "\(json["motionVisualDuration"] as! Double)",
            "--motion-bounce", "0.25", "--format", "json"
        ]).stdout
        let back = try JSONSerialization.jsonObject(with: Data(visual.utf8)) as! [String: Any]
        #expect(abs((back["stiffness"] as! Double) - 137.41358694003588) <= 1e-9 * 137.4)
        let mixed = try CLI.run(["spring", "--motion-duration", "0.8", "--bounce", "0.25"])
        #expect(mixed.status == 1 && mixed.stderr.contains("--motion-duration"))
        let range = try CLI.run(["spring", "--motion-duration", "12", "--motion-bounce", "0.2"])
        #expect(range.status == 1 && range.stderr.contains("--motion-duration") && range.stderr.contains("[0.01, 10]"))
    }
}
