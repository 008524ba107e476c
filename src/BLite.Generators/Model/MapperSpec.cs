namespace BLite.Generators.Model;

/// <summary>How SetId assigns the id.</summary>
internal enum IdSetKind : byte
{
    Assign,
    SetterAccessor,
    FieldAccessor,
}

/// <summary>Everything needed to emit one document type's mapper; <see cref="Types"/>[0] is the document type.</summary>
internal sealed record MapperSpec(
    string? Namespace,
    string MapperName,
    string DocumentTypeName,
    string IdTypeName,
    string CollectionName,
    IdSetKind IdSet,
    string IdSetTarget,
    EquatableArray<ObjectTypeSpec> Types,
    EquatableArray<FieldPathSpec> Paths,
    bool IdConverted)
{
    public string MapperFullName => Namespace is null ? "global::" + MapperName : "global::" + Namespace + "." + MapperName;
}

/// <summary>One entry of the generated field table (see MappedField).</summary>
internal sealed record FieldPathSpec(
    string MemberPath,
    EquatableArray<string> StoredNames,
    string BsonType,
    string? ElementBsonType,
    bool IsNullable,
    int ArraySegment);
