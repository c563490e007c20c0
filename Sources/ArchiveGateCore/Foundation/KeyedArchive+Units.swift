/// NSUnit's one rule the definitions table cannot say: which classes carry a converter.
extension KeyedArchive {
    /// A dimension (NSUnitLength …) needs its `NS.converter` (Foundation's NSDimension decoder
    /// fails without one); plain NSUnit must have none, since its decoder ignores the field and
    /// the JSON would show a converter Foundation never read.
    func checkConverter(_ object: inout ShapeCheckObject) {
        let className = object.className
        let converter = field(object.uid, "NS.converter")
        if FoundationShape.dimensionClassNames.contains(className) {
            if converter == nil || (converter.flatMap { referencedUID($0) }) == 0 {
                object.report(ShapeProblem(.missingField, key: "NS.converter", "\(className) has no NS.converter (a dimension needs one)"))
            }
        } else if converter != nil {
            object.report(ShapeProblem(.invalidValue, key: "NS.converter", "\(className) has an NS.converter, which only dimensions have"))
        }
    }
}
