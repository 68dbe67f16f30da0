import Foundation
import Testing

struct EasingCommandTests {
    @Test func defaultSamplesAreOneHundredAndOneFromZeroToOne() throws {
        let (header, rows) = try CLI.csv(["easing", "ease-in-out"])
        #expect(header == ["t", "value", "velocity"])
        #expect(rows.count == 101)
        for (i, row) in rows.enumerated() { #expect(row[0] == Double(i) / 100) }
        #expect(rows.first![1] == 0 && rows.last![1] == 1)
        // ease-in-out is symmetric: value(1 − t) = 1 − value(t)
        for i in 0...100 { #expect(abs(rows[i][1] + rows[100 - i][1] - 1) <= 1e-12) }
    }

    @Test func bounceOutAndTheSeedsBounceDifferAtSixElevenths() throws {
        let t = "\(6.0 / 11)"
        let penner = try CLI.csv(["easing", "bounce-out", "--at", t]).rows[0]
        let seed = try CLI.csv(["easing", "lockwood-bounce-out", "--at", t]).rows[0]
        #expect(abs(penner[1] - 0.75) <= 1e-15)
        #expect(abs(seed[1] - 0.7) <= 1e-15)
    }

    @Test func dampedCosineRowsAreTheClosedForm() throws {
        let rows = try CLI.csv(["easing", "damped-cosine(5,30)", "--samples", "11"]).rows
        for row in rows {
            let t = row[0]
            #expect(abs(row[1] - (1 - exp(-5 * t) * cos(30 * t))) <= 1e-15)
            #expect(abs(row[2] - exp(-5 * t) * (5 * cos(30 * t) + 30 * sin(30 * t))) <= 1e-12)
        }
    }

    @Test func numbersAreShortestRoundTrip() throws {
        let result = try CLI.run(["easing", "linear", "--at", "0.1,0.3"])
        #expect(result.stdout == "t,value,velocity\n0.1,0.1,1.0\n0.3,0.3,1.0\n")
    }

    @Test func writesTheFileAtomically() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kinema-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("out.csv").path
        let result = try CLI.run(["easing", "quad-in", "--samples", "3", "-o", path])
        #expect(result.status == 0 && result.stdout.isEmpty)
        #expect(
            try String(contentsOfFile: path, encoding: .utf8)
                == "t,value,velocity\n0.0,0.0,0.0\n0.5,0.25,1.0\n1.0,1.0,2.0\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.csv"])
        let failed = try CLI.run(["easing", "nope", "-o", directory.appendingPathComponent("bad.csv").path])
        #expect(failed.status == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.csv"])
    }
}
