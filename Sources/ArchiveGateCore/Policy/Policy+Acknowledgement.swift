extension Policy {
    /// Whether `acknowledge` covers `finding`: it names the finding's `$classname`, and every
    /// function, selector and class constant the finding lists (`Finding.namesToAcknowledge`), so
    /// acknowledging NSFunctionExpression does not admit a function nobody has read. Names are
    /// compared by UTF-16 code units, as the Objective-C runtime and Foundation compare them.
    public func acknowledges(_ finding: ValidationReport.Finding) -> Bool {
        acknowledgesName(finding.className) && finding.namesToAcknowledge.allSatisfy(acknowledgesName)
    }

    private func acknowledgesName(_ name: String) -> Bool {
        if acknowledged.contains(name) {
            // A Set finds canonically equivalent spellings too; only the exact code units count.
            return acknowledged.contains { $0.utf16.elementsEqual(name.utf16) }
        }
        return false
    }
}
