import RealModule

/// The step-size control of the adaptive methods: the size of the next trial step from the scaled
/// error of the last, by Dormand–Prince 5(4)'s or DOP853's law, with the rules both share.
///
/// - Dormand–Prince 5(4): PI control `h·0.9·err^(−1/5)·(errₚᵣₑᵥ/err)^β`, β = 0.04 (Gustafsson's
///   form), the change clamped to [0.2, 10]; a rejected step is retried at no less than a fifth.
/// - DOP853: `h·0.9·err^(−1/8)`, the change clamped to [1/3, 6].
/// - Both: a non-finite error cuts the step to a fifth; no growth right after a rejection; a step
///   cut short by the limit keeps the proposal it cut; a step below 1e-14·|t| throws.
@_spi(Engine) public struct StepSizeController: Sendable {
    public enum Law: Sendable { case dormandPrince54, dop853 }

    @usableFromInline let law: Law
    /// The size the next trial takes, unless the limit is nearer.
    @usableFromInline var stepSize: Double
    @usableFromInline var previousError = 1e-4
    @usableFromInline var rejectedLast = false
    /// Trials rejected so far.
    @usableFromInline var rejectedSteps = 0

    @inlinable
    init(_ law: Law, stepSize: Double) {
        self.law = law
        self.stepSize = stepSize
    }

    /// Starts afresh at `stepSize` (after an impact).
    @inlinable
    mutating func restart(stepSize: Double) {
        self.stepSize = stepSize
        previousError = 1e-4
        rejectedLast = false
    }

    /// The next trial's size from `t`, `remaining` before the limit.
    /// - Throws: `SimulationError.stepSizeUnderflow` when it is below 1e-14·|t| short of the limit.
    @inlinable
    func trialStep(at t: Double, remaining: Double) throws -> Double {
        let h = min(stepSize, remaining)
        guard h > 1e-14 * max(1, abs(t)) || h == remaining else {
            throw SimulationError.stepSizeUnderflow(time: t, step: h)
        }
        return h
    }

    /// Judges a trial of size `h` whose scaled error is `error`, and sets the size of the next
    /// trial: the retry's when it is rejected, the next step's (at most `maximumStep`) when it is
    /// accepted. Returns whether it is accepted.
    @inlinable
    mutating func accepts(_ error: Double, step h: Double, remaining: Double, maximumStep: Double) -> Bool {
        guard error.isFinite else {
            stepSize = 0.2 * h
            rejectedSteps += 1
            rejectedLast = true
            return false
        }
        let next: Double
        switch law {
        case .dormandPrince54:
            let factor11 = Double.pow(error, 0.2)
            guard error <= 1 else {
                stepSize = h / min(5, factor11 / 0.9)
                rejectedSteps += 1
                rejectedLast = true
                return false
            }
            let factor = min(5, max(0.1, factor11 * Double.pow(max(error, 1e-4) / previousError, 0.04) / 0.9))
            next = min(h / factor, maximumStep)
            previousError = max(error, 1e-4)
        case .dop853:
            // error^(1/8) by three square roots, cheaper than pow.
            let factor = min(3, max(1.0 / 6, error.squareRoot().squareRoot().squareRoot() / 0.9))
            guard error <= 1 else {
                stepSize = h / factor
                rejectedSteps += 1
                rejectedLast = true
                return false
            }
            next = min(h / factor, maximumStep)
        }
        let proposal = rejectedLast ? min(next, h) : next
        rejectedLast = false
        // A step cut short by the limit says nothing about the right size: keep the proposal.
        stepSize = h == remaining && h < stepSize ? max(stepSize, proposal) : proposal
        return true
    }
}
