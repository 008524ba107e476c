namespace BLite.Generators.Model;

/// <summary>A DocumentDbContext subclass to complete with a generated CreateCollections.</summary>
/// <param name="ContainingTypes">Declarations of enclosing types, outermost first, e.g. <c>partial class Outer</c>.</param>
internal sealed record ContextSpec(
    string? Namespace,
    string Name,
    string HintName,
    EquatableArray<string> ContainingTypes,
    EquatableArray<CollectionSpec> Collections);

internal sealed record CollectionSpec(string PropertyName, string CollectionName, string MapperFullName, string IdTypeName, string DocumentTypeName, bool IdConverted);
