using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

namespace BLite.Generators.Parsing;

/// <summary>How types and identifiers are spelled in generated code.</summary>
internal static class TypeNames
{
    private static readonly SymbolDisplayFormat Annotated = SymbolDisplayFormat.FullyQualifiedFormat
        .AddMiscellaneousOptions(SymbolDisplayMiscellaneousOptions.IncludeNullableReferenceTypeModifier);

    /// <summary>Fully qualified, nested annotations kept, no top-level '?' on a reference type.</summary>
    public static string Plain(ITypeSymbol type)
        => (type.IsReferenceType ? type.WithNullableAnnotation(NullableAnnotation.NotAnnotated) : type).ToDisplayString(Annotated);

    /// <summary>Fully qualified with every nullable annotation.</summary>
    public static string WithAnnotations(ITypeSymbol type) => type.ToDisplayString(Annotated);

    /// <summary>For messages: short, readable.</summary>
    public static string Display(ITypeSymbol type)
        => (type.IsReferenceType ? type.WithNullableAnnotation(NullableAnnotation.NotAnnotated) : type).ToDisplayString(SymbolDisplayFormat.MinimallyQualifiedFormat);

    public static string Identifier(string name)
        => SyntaxFacts.GetKeywordKind(name) != SyntaxKind.None ? "@" + name : name;

    /// <summary>A name that is safe as part of a generated identifier.</summary>
    public static string Sanitize(string name)
    {
        var chars = name.ToCharArray();
        for (var i = 0; i < chars.Length; i++)
        {
            if (!SyntaxFacts.IsIdentifierPartCharacter(chars[i]))
            {
                chars[i] = '_';
            }
        }

        return new string(chars);
    }
}
