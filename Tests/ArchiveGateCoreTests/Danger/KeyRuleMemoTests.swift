import Testing
@testable import ArchiveGateCore

/// `DangerScan.KeyRule.memo`: the 32-bit word the walk's per-key memo compares. Two different
/// (class, owner) pairs must never share a word (a shared word would skip a rule), zero is never a
/// word (zero means "none"), and indices that do not fit skip the memo instead of wrapping.
@Suite struct KeyRuleMemoTests {
    private func rule(_ classIndex: Int32, _ ownerClass: Int32) -> DangerScan.KeyRule {
        DangerScan.KeyRule(classIndex: classIndex, ownerClass: ownerClass, keyIndex: 7)
    }

    @Test func distinctPairsGetDistinctNonzeroWords() {
        let indices: [Int32] = [0, 1, 2, 255, 256, 0x7FFF, 0xFFFE]
        var seen = [UInt32: (Int32, Int32)]()
        for classIndex in indices {
            for ownerClass in indices {
                let memo = rule(classIndex, ownerClass).memo
                #expect(memo != nil && memo != 0, "(\(classIndex), \(ownerClass))")
                if let memo {
                    #expect(seen[memo] == nil, "(\(classIndex), \(ownerClass)) shares \(memo) with \(String(describing: seen[memo]))")
                    seen[memo] = (classIndex, ownerClass)
                }
            }
        }
    }

    @Test func indicesThatDoNotFitSkipTheMemo() {
        #expect(rule(0xFFFF, 0).memo == nil)
        #expect(rule(0, 0xFFFF).memo == nil)
        #expect(rule(Int32.max, 3).memo == nil)
        #expect(rule(-1, 3).memo == nil)
    }
}
