import ArgumentParser
import Testing

@testable import KinemaCLI

/// Each spring, scene, simulation and bake flag is declared twice in one file, its option and its
/// case; these tests fail when the two drift, so that parsing, validation and `MotionRequest`'s
/// fields (a sweep's rows, the studio's requests) follow from them.
struct DeclaredFlagTests {
    /// The kind each option's type declares, by property name (argument-parser's wrappers are
    /// `_name` in the mirror; option groups are not flags).
    static func optionKinds(_ options: some ParsableArguments) -> [String: String] {
        var kinds: [String: String] = [:]
        for child in Mirror(reflecting: options).children {
            guard let label = child.label?.dropFirst() else { continue }
            switch child.value {
            case is Option<Double?>: kinds[String(label)] = "number"
            case is Option<Int?>: kinds[String(label)] = "integer"
            case is Option<UInt64?>: kinds[String(label)] = "unsigned"
            case is Flag<Bool>: kinds[String(label)] = "presence"
            case is Option<String?>, is Option<String>: kinds[String(label)] = "text"
            default: continue
            }
        }
        return kinds
    }

    static func caseKinds<Key: DeclaredFlag>(_: Key.Type) -> [String: String] {
        Dictionary(
            uniqueKeysWithValues: Key.allCases.map { flag in
                switch flag.kind {
                case .number: return ("\(flag)", "number")
                case .integer: return ("\(flag)", "integer")
                case .unsigned: return ("\(flag)", "unsigned")
                case .presence: return ("\(flag)", "presence")
                case .text: return ("\(flag)", "text")
                }
            })
    }

    @Test func everyOptionHasItsCaseOfItsKindAndEveryCaseItsOption() throws {
        #expect(Self.optionKinds(try SpringOptions.parse([])) == Self.caseKinds(SpringFlag.self))
        #expect(Self.optionKinds(try SceneOptions.parse([])) == Self.caseKinds(SceneFlag.self))
        #expect(Self.optionKinds(try SimulationOptions.parse([])) == Self.caseKinds(SimulationFlag.self))
        #expect(Self.optionKinds(try BakeOptions.parse([])) == Self.caseKinds(BakeFlag.self))
        // FlagValues holds a set in 32 lanes and a 32-bit mask.
        #expect(
            [
                SpringFlag.allCases.count, SceneFlag.allCases.count, SimulationFlag.allCases.count,
                BakeFlag.allCases.count
            ]
            .allSatisfy { $0 <= 32 }
        )
        // No two flags of a run or of a bake share a name.
        let numeric =
            SpringFlag.allCases.filter(\.kind.isNumeric).count + SceneFlag.allCases.filter(\.kind.isNumeric).count
            + SimulationFlag.allCases.filter(\.kind.isNumeric).count
        #expect(MotionRequest.runFields.count == numeric)
        #expect(
            MotionRequest.bakeFields.count == SpringFlag.allCases.count + SceneFlag.allCases.count
                + BakeFlag.allCases.count)
    }

    /// Every number flag parses into its own slot (values distinct per flag), reads back, and is
    /// set by the sweep through its `MotionRequest` field of its name.
    @Test func everyNumberFlagParsesReadsBackAndIsSwept() throws {
        let value = { (raw: Int) in Double(raw) + 0.5 }
        func isNumber(_ kind: FlagKind) -> Bool {
            if case .number = kind { return true }
            return false
        }
        func numberArguments<Key: DeclaredFlag>(_: Key.Type) -> [String] {
            Key.allCases.filter { isNumber($0.kind) }.flatMap { [$0.name, "\(value($0.rawValue))"] }
        }
        let spring = try SpringOptions.parse(numberArguments(SpringFlag.self)).values
        let scene = try SceneOptions.parse(numberArguments(SceneFlag.self)).values
        let simulation = try SimulationOptions.parse(numberArguments(SimulationFlag.self)).values
        var row = MotionRequest(
            scene: try SceneOptions.parse([]).values, simulation: try SimulationOptions.parse([]).values)
        for flag in SpringFlag.allCases where isNumber(flag.kind) {
            #expect(spring[flag] == value(flag.rawValue), "\(flag.name)")
            #expect(row.scene.springOptions[flag] == nil)
            let field = try #require(MotionRequest.runFields[flag.name])
            let isSet = row.set(field, to: -3)
            #expect(isSet)
            #expect(row.scene.springOptions[flag] == -3, "\(flag.name)")
        }
        for flag in SceneFlag.allCases where isNumber(flag.kind) {
            #expect(scene[flag] == value(flag.rawValue), "\(flag.name)")
            let field = try #require(MotionRequest.runFields[flag.name])
            let isSet = row.set(field, to: -3)
            #expect(isSet)
            #expect(row.scene[flag] == -3, "\(flag.name)")
        }
        for flag in SimulationFlag.allCases where isNumber(flag.kind) {
            #expect(simulation[flag] == value(flag.rawValue), "\(flag.name)")
            let field = try #require(MotionRequest.runFields[flag.name])
            let isSet = row.set(field, to: -3)
            #expect(isSet)
            #expect(row.simulation[flag] == -3, "\(flag.name)")
        }
        #expect(
            Set(row.scene.springOptions.givenFlags) == Set(SpringFlag.allCases.filter { isNumber($0.kind) }.map(\.name))
        )
        row.scene.springOptions[.mass] = nil
        #expect(!row.scene.springOptions.givenFlags.contains("--mass"))
    }

    /// Whole numbers read back exactly at the ends of their types, and a sweep sets them only to
    /// values their types hold (a row with another is parsed, and refused as on the command line);
    /// text and presence flags read back as given and have no sweep setter.
    @Test func wholeTextAndPresenceFlagsReadBack() throws {
        let simulation = try SimulationOptions.parse([
            "--seed", "18446744073709551615", "--max-steps", "9223372036854775807", "--order", "-3",
            "--integrator", "rk4"
        ]).values
        #expect(simulation.whole(.seed, as: UInt64.self) == .max)
        #expect(simulation.whole(.maxSteps, as: Int.self) == .max)
        #expect(simulation.whole(.order, as: Int.self) == -3)
        #expect(simulation[text: .integrator] == "rk4")
        #expect(try SimulationOptions.parse([]).values[text: .integrator] == "dopri5")
        let scene = try SceneOptions.parse(["--spring", "--damped-cosine", "3,4"]).values
        #expect(scene.flags.isGiven(.spring) && !scene.flags.isGiven(.drop) && !scene.flags.isGiven(.scene))
        #expect(scene.springOptions[text: .dampedCosine] == "3,4")
        #expect(scene.springOptions.givenFlags == ["--damped-cosine"])
        #expect(try SceneOptions.parse(["--scene", "a b.json"]).values.flags[text: .scene] == "a b.json")
        var row = MotionRequest(scene: try SceneOptions.parse([]).values, simulation: simulation)
        let order = try #require(MotionRequest.runFields["--order"])
        let seed = try #require(MotionRequest.runFields["--seed"])
        let sets = [
            row.set(order, to: 5), !row.set(order, to: 2.5), !row.set(order, to: 0x1p63),
            row.simulation.whole(.order, as: Int.self) == 5, row.set(seed, to: 0x1p63),
            row.simulation.whole(.seed, as: UInt64.self) == 1 << 63, !row.set(seed, to: -1), !row.set(seed, to: 0x1p64)
        ]
        #expect(sets == Array(repeating: true, count: sets.count))
        #expect(SweepCommand.exactWhole("9007199254740992") == 0x1p53)
        #expect(SweepCommand.exactWhole("9007199254740993") == nil)
        #expect(SweepCommand.exactWhole("18446744073709551615") == nil)
        #expect(SweepCommand.exactWhole("2.0") == nil)
        #expect(SweepCommand.numericFlags["--order"] == true && SweepCommand.numericFlags["--seed"] == true)
        #expect(SweepCommand.numericFlags["--stiffness"] == false && SweepCommand.numericFlags["--spring"] == nil)
        let unswept =
            SimulationFlag.allCases.filter { !$0.kind.isNumeric }.map(\.name)
            + SceneFlag.allCases.filter { !$0.kind.isNumeric }.map(\.name) + ["--damped-cosine"]
        #expect(unswept.allSatisfy { MotionRequest.runFields[$0] == nil })
    }

    /// Each rule is applied to its flag by name, and an absent flag is not checked.
    @Test func rulesAreCheckedByName() throws {
        var values = FlagValues<SceneFlag>(reading: try SceneOptions.parse([]))
        try values.check()
        values[.restitution] = 1.5
        #expect { try values.check() } throws: { "\($0)".contains("'--restitution' must be a number in [0, 1]") }
        try values.check(~(1 << SceneFlag.restitution.rawValue))
        values[.restitution] = nil
        values[.height] = -1
        #expect { try values.check() } throws: { "\($0)".contains("'--height' must be a finite number ≥ 0") }
        let simulation = try SimulationOptions.parse(["--order", "13", "--max-steps", "0", "--seed", "0"]).values
        #expect { try simulation.check(SimulationFlag.mask(.order)) } throws: {
            "\($0)".contains("'--order' must be an integer from 1 to 12 (got 13)")
        }
        #expect { try simulation.check(SimulationFlag.mask(.maxSteps)) } throws: {
            "\($0)".contains("'--max-steps' must be an integer > 0 (got 0)")
        }
        try simulation.check(SimulationFlag.mask(.seed))
    }
}
