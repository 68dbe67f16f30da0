/// A system of any size (a `LaneSystem`) stepped in place: the states in `FlatVector`s and one workspace allocated at
/// creation (nothing allocated per step). The acceleration at a step's end is evaluated once, as
/// the first the next step needs and, with the one at its start, the dense output's.
@_spi(Engine) public struct FlatStepStorage<System: LaneSystem>: FixedStepStorage {
    public typealias State = PhaseState<FlatVector>

    public private(set) var state: State
    public private(set) var previousState: State
    public private(set) var evaluations = 0
    /// Slots of n lanes: the accelerations at the last step's start and end, then seven of scratch.
    var work: [Double]
    let count: Int
    /// Which of slots 0 and 1 holds the acceleration at the end of the last step.
    var endSlot = 1

    public init(system: System, time: Double, state: State) {
        count = system.coordinateCount
        work = Array(repeating: 0, count: 9 * count)
        self.state = state.owned(sizedTo: count)
        previousState = self.state.owned(sizedTo: count)
        evaluateEndAcceleration(system)
    }

    public mutating func step<Method: FixedStepMethod>(
        _ method: Method.Type, _ system: System, time: Double, by h: Double
    ) {
        swap(&state, &previousState)
        let n = count, start = endSlot
        work.withUnsafeMutableBufferPointer { w in
            previousState.position.lanes.withUnsafeMutableBufferPointer { x0 in
                previousState.velocity.lanes.withUnsafeMutableBufferPointer { v0 in
                    state.position.lanes.withUnsafeMutableBufferPointer { x1 in
                        state.velocity.lanes.withUnsafeMutableBufferPointer { v1 in
                            var registers = FlatStepRegisters<System>(
                                count: n, x0: x0.baseAddress!, v0: v0.baseAddress!, a0: w.baseAddress! + start * n,
                                x1: x1.baseAddress!, v1: v1.baseAddress!, scratch: w.baseAddress! + 2 * n)
                            Method.step(&registers, system, time: time, by: h)
                            system.accelerate(
                                position: x1.baseAddress!, velocity: v1.baseAddress!,
                                into: w.baseAddress! + (1 - start) * n)
                        }
                    }
                }
            }
        }
        endSlot = 1 - start
    }

    /// The acceleration in slot `slot`.
    func acceleration(_ slot: Int) -> FlatVector { FlatVector(Array(work[slot * count..<(slot + 1) * count])) }

    public func accelerations(_ system: System, previousTime: Double, time: Double) -> (
        start: FlatVector, end: FlatVector
    ) {
        (acceleration(1 - endSlot), acceleration(endSlot))
    }

    /// The acceleration at the state, into the slot of the end of the last step.
    mutating func evaluateEndAcceleration(_ system: System) {
        let n = count, slot = endSlot
        work.withUnsafeMutableBufferPointer { w in
            state.position.lanes.withUnsafeBufferPointer { x in
                state.velocity.lanes.withUnsafeBufferPointer { v in
                    system.accelerate(
                        position: x.baseAddress!, velocity: v.baseAddress!, into: w.baseAddress! + slot * n)
                }
            }
        }
        evaluations += 1
    }

    public mutating func restart(_ system: System, time: Double, state: State) {
        self.state = state.owned(sizedTo: count)
        previousState = self.state.owned(sizedTo: count)
        evaluateEndAcceleration(system)
    }
}

/// The registers as buffers of n lanes, a formula run lane by lane.
@_spi(Engine) public struct FlatStepRegisters<System: LaneSystem>: StepRegisters {
    let count: Int
    let x0: UnsafeMutablePointer<Double>, v0: UnsafeMutablePointer<Double>, a0: UnsafeMutablePointer<Double>
    let x1: UnsafeMutablePointer<Double>, v1: UnsafeMutablePointer<Double>
    let scratch: UnsafeMutablePointer<Double>

    @inline(__always)
    func lanes(_ slot: StepSlot) -> UnsafeMutablePointer<Double> {
        switch slot {
        case .x0: return x0
        case .v0: return v0
        case .a0: return a0
        case .x1: return x1
        case .v1: return v1
        default: return scratch + (slot.rawValue - StepSlot.s0.rawValue) * count
        }
    }

    public subscript(slot: StepSlot, lane: Int) -> Double {
        @inline(__always) get { lanes(slot)[lane] }
        @inline(__always) nonmutating set { lanes(slot)[lane] = newValue }
    }

    @inline(__always)
    public mutating func forEachLane(_ body: (inout Self, Int) -> Void) {
        for i in 0..<count { body(&self, i) }
    }

    @inline(__always)
    public mutating func accelerate(_ x: StepSlot, _ v: StepSlot, into a: StepSlot, time: Double, _ system: System) {
        system.accelerate(position: lanes(x), velocity: lanes(v), into: lanes(a))
    }
}
