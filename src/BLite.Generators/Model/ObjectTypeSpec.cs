namespace BLite.Generators.Model;

/// <summary>A class or struct stored as a document.</summary>
/// <param name="TypeName">Fully qualified.</param>
/// <param name="DisplayName">The simple name, used in generated method names and messages.</param>
/// <param name="MethodSuffix">Unique within the mapper: <c>Write{MethodSuffix}</c>, <c>Read{MethodSuffix}</c>.</param>
/// <param name="IsValueType">A struct.</param>
/// <param name="CanConstruct">False for abstract types, which are read only through a derived type.</param>
/// <param name="Members">Mapped members; the id (if any) first.</param>
/// <param name="ConstructorParameterCount">Parameters of the chosen constructor.</param>
/// <param name="DerivedTypes">From [BLiteDerivedType], most derived first.</param>
internal sealed record ObjectTypeSpec(
    string TypeName,
    string DisplayName,
    string MethodSuffix,
    bool IsValueType,
    bool CanConstruct,
    EquatableArray<MemberSpec> Members,
    int ConstructorParameterCount,
    EquatableArray<DerivedTypeSpec> DerivedTypes)
{
    /// <summary>Some base type lists this one in [BLiteDerivedType], so its writer takes a discriminator.</summary>
    public bool IsDerivedType { get; init; }

    public bool IsPolymorphic => DerivedTypes.Count > 0;
}

internal sealed record DerivedTypeSpec(int TypeIndex, string TypeName, string Discriminator);
