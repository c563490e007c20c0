/// UIColor and NSColor as plain JSON: a component color as `{"colorSpace", <components>,
/// "systemName"?}`, a catalog color as `{"colorSpace":"catalog","catalogName","colorName","color"}`
/// where `color` is its fallback, written in place (a value, like every color).
extension PlainRenderer {
    /// Writes the color at `uid`; false when it is neither form (it then renders as `{"$class": …}`).
    /// A chain of catalog fallbacks is followed in a loop, at most `maxDepth` long.
    mutating func appendColor(_ uid: Int) -> Bool {
        guard archive.color(uid) != nil || archive.catalogColor(uid) != nil else { return false }
        var current: Int? = uid
        var opened = 0
        while let colorUID = current, let catalog = archive.catalogColor(colorUID), opened < limits.maxDepth {
            output.append("{\"colorSpace\":\"catalog\",\"catalogName\":")
            output.appendString(catalog.catalogName)
            output.append(",\"colorName\":")
            output.appendString(catalog.colorName)
            output.append(",\"color\":")
            opened += 1
            current = catalog.fallback
        }
        // The fallback's own problems are the walk's findings at its object; here it is null then.
        if let colorUID = current, let color = archive.color(colorUID) {
            appendComponentColor(color, customSpace: archive.fieldTarget(colorUID, "NSCustomColorSpace") ?? 0)
        } else {
            output.append("null")
        }
        for _ in 0 ..< opened { output.append(UInt8(ascii: "}")) }
        return true
    }

    /// `customSpace`: the UID of AppKit's `NSCustomColorSpace` object (0 when none), shown as
    /// `"customColorSpace": {"model","id","icc"}` from its `NSModel`, `NSID` and `NSICC` profile.
    private mutating func appendComponentColor(_ color: KeyedArchive.ColorContents, customSpace: Int) {
        output.append("{\"colorSpace\":")
        output.appendString(color.space)
        for (name, value) in zip(color.names, color.components) {
            output.append(",")
            output.append(name)
            output.appendDouble(value)
        }
        if let name = color.systemName {
            output.append(",\"systemName\":")
            output.appendString(name)
        }
        if customSpace != 0, archive.archiveClass(of: customSpace)?.isInline == false {
            output.append(",\"customColorSpace\":{\"model\":")
            appendOptionalScalar(archive.scalarField(customSpace, "NSModel"))
            output.append(",\"id\":")
            appendOptionalScalar(archive.scalarField(customSpace, "NSID"))
            output.append(",\"icc\":")
            if let index = archive.dataIndex(archive.field(customSpace, "NSICC")) { appendData(at: index) } else { output.append("null") }
            output.append(UInt8(ascii: "}"))
        }
        output.append(UInt8(ascii: "}"))
    }

    private mutating func appendOptionalScalar(_ index: Int?) {
        if let index { appendScalar(index) } else { output.append("null") }
    }
}
