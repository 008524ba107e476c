using Microsoft.CodeAnalysis;

namespace BLite.Generators;

/// <summary>
/// Every diagnostic the generator reports. Ids are stable and listed in AnalyzerReleases.*.md; all
/// are errors because a type the generator cannot map must not compile into a silently lossy mapper.
/// </summary>
internal static class DiagnosticDescriptors
{
    private const string Category = "BLite.Mapping";

    public static readonly DiagnosticDescriptor UnsupportedMemberType = Create(
        "BLITE001",
        "Member cannot be mapped to C-BSON",
        "Member '{0}' of type '{1}' cannot be mapped to C-BSON: {2}. Change its type or mark it [BsonIgnore].");

    public static readonly DiagnosticDescriptor ContextNotPartial = Create(
        "BLITE002",
        "DocumentDbContext subclass must be partial",
        "'{0}' derives from DocumentDbContext and must be declared partial (with every enclosing type) so its collections can be generated");

    public static readonly DiagnosticDescriptor MissingId = Create(
        "BLITE003",
        "Document type has no id",
        "Document type '{0}' has no id: add a member named Id or mark one with [BsonId]");

    public static readonly DiagnosticDescriptor UnsupportedIdType = Create(
        "BLITE004",
        "Unsupported id type",
        "The id '{0}' of '{1}' has type '{2}', which can never be stored; use ObjectId, Guid, int, long or string, or a class or struct of your own mapped with HasIdConverter");

    public static readonly DiagnosticDescriptor DuplicateCollectionName = Create(
        "BLITE005",
        "Duplicate collection name",
        "Collection name '{0}' is used by both '{1}' and '{2}' in '{3}': the document type's [BLiteDocument(\"{0}\")] names the collection of every property of that type; remove the attribute so each collection takes its property's name");

    public static readonly DiagnosticDescriptor MemberNotSettable = Create(
        "BLITE006",
        "Member cannot be set when reading",
        "Member '{0}' would be stored but could never be read back: it has no setter, is not an auto-property and matches no constructor parameter. Add a setter or constructor parameter, or mark it [BsonIgnore].");

    public static readonly DiagnosticDescriptor TypeNotConstructible = Create(
        "BLITE007",
        "Type cannot be constructed",
        "Type '{0}' cannot be created when reading: {1}");

    public static readonly DiagnosticDescriptor DuplicateFieldName = Create(
        "BLITE008",
        "Duplicate stored field name",
        "Members '{0}' and '{1}' of '{2}' are both stored as field '{3}'");

    public static readonly DiagnosticDescriptor InvalidDerivedType = Create(
        "BLITE009",
        "Invalid [BLiteDerivedType]",
        "[BLiteDerivedType] on '{0}' is invalid: {1}");

    public static readonly DiagnosticDescriptor InaccessibleType = Create(
        "BLITE010",
        "Type is not accessible to generated code",
        "Type '{0}' cannot be mapped: {1}");

    public static readonly DiagnosticDescriptor CollectionWithoutSetter = Create(
        "BLITE011",
        "Collection property has no setter",
        "Collection property '{0}' needs a setter (it may be private) so the generated context can create it");

    public static readonly DiagnosticDescriptor MultipleIds = Create(
        "BLITE012",
        "More than one id",
        "Type '{0}' marks both '{1}' and '{2}' as its id; keep one [BsonId]");

    public static readonly DiagnosticDescriptor DocumentNotClass = Create(
        "BLITE013",
        "Document type must be a class",
        "Collection document type '{0}' must be a non-generic class or record class; structs can only be embedded values");

    public static readonly DiagnosticDescriptor CollectionIdTypeMismatch = Create(
        "BLITE014",
        "Collection id type does not match the document's id",
        "Collection property '{0}' declares id type '{1}', but the id of '{2}' has type '{3}'");

    private static DiagnosticDescriptor Create(string id, string title, string message)
        => new(id, title, message, Category, DiagnosticSeverity.Error, isEnabledByDefault: true);
}
