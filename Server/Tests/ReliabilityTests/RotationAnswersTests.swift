import Testing
@testable import SessionSimulation

/// What may excuse a reuse on a server without successor recovery, and what
/// may not (docs/RELIABILITY.md, "Without successor recovery").
struct RotationAnswersTests {
    /// The server's rows: "old" was rotated to "new".
    static func successor(_ hash: String) -> String? {
        hash == RotationAnswers.hash("old") ? RotationAnswers.hash("new") : nil
    }

    @Test func aLostAnswerExplainsTheReuseOfItsToken() {
        let answers = RotationAnswers()
        answers.lost(presenting: "old")
        answers.reuseAnswered(presenting: "old")
        #expect(answers.explainsReuse(successorOf: Self.successor))
    }

    @Test func aSuccessorWhoseSaveDiedExplainsTheReuse() {
        let answers = RotationAnswers()
        answers.unsavedSave(of: "new")
        answers.reuseAnswered(presenting: "old")
        #expect(answers.explainsReuse(successorOf: Self.successor))
    }

    @Test func aDeliveredAnswerExplainsNothing() {
        let answers = RotationAnswers()
        answers.lost(presenting: "old")
        answers.delivered(presenting: "old")
        answers.reuseAnswered(presenting: "old")
        #expect(!answers.explainsReuse(successorOf: Self.successor))
    }

    /// The CI failure: one process's answer timed out on a busy machine, a
    /// retry got the successor and saved it, and a process that skipped the
    /// lock presented the old token. The lost answer must not excuse that.
    @Test func aSavedSuccessorOutweighsALostAnswer() {
        let answers = RotationAnswers()
        answers.lost(presenting: "old")
        answers.savedSave(of: "new")
        answers.reuseAnswered(presenting: "old")
        #expect(!answers.explainsReuse(successorOf: Self.successor))
    }

    /// The second CI failure: the presentation that revoked the family met a
    /// fault, so its `already used` answer went unrecorded; the next
    /// presentation, of the newest token (never rotated), was answered `already
    /// used` by the revoked family, and an earlier lost answer for that token
    /// excused the whole reuse.
    @Test func aTokenNeverRotatedExplainsNothing() {
        let answers = RotationAnswers()
        answers.lost(presenting: "newest")
        answers.reuseAnswered(presenting: "newest")
        #expect(!answers.explainsReuse(successorOf: Self.successor))
    }
}
