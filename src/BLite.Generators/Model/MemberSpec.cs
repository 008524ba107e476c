namespace BLite.Generators.Model;

/// <summary>How generated code gets a member's value.</summary>
internal enum MemberReadKind : byte
{
    Direct,
    GetterAccessor,
    FieldAccessor,
}

/// <summary>How generated code gives a member its value on deserialization.</summary>
internal enum MemberWriteKind : byte
{
    Constructor,
    Initializer,
    Assign,
    SetterAccessor,
    FieldAccessor,
}

/// <param name="Name">The C# member name (escaped with @ when a keyword).</param>
/// <param name="StoredName">The field name in C-BSON.</param>
/// <param name="Value">The member's value shape.</param>
/// <param name="Read">How it is read.</param>
/// <param name="Write">How it is set.</param>
/// <param name="ConstructorParameterIndex">For <see cref="MemberWriteKind.Constructor"/>: the parameter position.</param>
/// <param name="DeclaringTypeName">The declaring type, for [UnsafeAccessor] targets.</param>
/// <param name="DeclaringTypeIsValueType">Accessors then take the target by ref.</param>
/// <param name="AccessorTarget">The metadata name an accessor binds to: <c>get_X</c>, <c>set_X</c>, or a field name.</param>
/// <param name="GetterTarget">For <see cref="MemberReadKind.GetterAccessor"/>/<see cref="MemberReadKind.FieldAccessor"/>: the metadata name read.</param>
internal sealed record MemberSpec(
    string Name,
    string StoredName,
    ValueSpec Value,
    MemberReadKind Read,
    MemberWriteKind Write,
    int ConstructorParameterIndex,
    string DeclaringTypeName,
    bool DeclaringTypeIsValueType,
    string AccessorTarget,
    string GetterTarget)
{
    public bool IsId { get; init; }

    /// <summary>
    /// The member starts out holding a new, empty object or collection of exactly its type, made by
    /// its own initializer on every construction and touched by no constructor body, so a reader
    /// may fill that instance instead of replacing it with another one.
    /// </summary>
    public bool HasFreshEmptyInitializer { get; init; }
}
