using BLite.Generators.Model;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace BLite.Generators.Parsing;

internal sealed partial class MapperParser
{
    /// <summary>
    /// Whether <paramref name="member"/> of <paramref name="type"/> always starts out as a new, empty
    /// instance of exactly its own type: an auto-property or field whose initializer is <c>new()</c>,
    /// <c>new T()</c> or <c>[]</c> (no arguments, no items), on a type and bases whose constructors
    /// are all implicit, so no constructor body can have replaced or filled it. Only then may a reader
    /// fill that instance instead of allocating another and dropping it.
    /// </summary>
    private bool HasFreshEmptyInitializer(INamedTypeSymbol type, ISymbol member, ValueSpec value, MemberReadKind read, MemberWriteKind write)
    {
        if (read != MemberReadKind.Direct || write != MemberWriteKind.Assign || !value.IsReferenceType || !IsFillable(value))
        {
            return false;
        }

        for (var current = type; current is not null; current = current.BaseType)
        {
            foreach (var constructor in current.InstanceConstructors)
            {
                if (!constructor.IsImplicitlyDeclared)
                {
                    return false;
                }
            }

            if (SymbolEqualityComparer.Default.Equals(current, member.ContainingType))
            {
                return InitializerOf(member) is { } initializer && CreatesEmpty(initializer, MemberType(member));
            }
        }

        return false;
    }

    /// <summary>Values a reader can fill in place: a list, set or dictionary, or an object read member by member into an existing instance.</summary>
    private bool IsFillable(ValueSpec value) => value.Kind switch
    {
        ValueKind.Collection => value.Collection is CollectionKind.List or CollectionKind.HashSet,
        ValueKind.Dictionary => value.Collection == CollectionKind.Dictionary,
        ValueKind.Object => !value.IsPolymorphic && _types[value.TypeIndex] is { } nested && FillsInPlace(nested),
        _ => false,
    };

    /// <summary>
    /// A type made with its parameterless constructor whose members are all assigned, so its reader
    /// can work on an instance made elsewhere. A type still being built (a recursive reference) is not
    /// known yet and is not filled.
    /// </summary>
    private static bool FillsInPlace(ObjectTypeSpec type)
    {
        if (type.IsValueType || !type.CanConstruct || type.IsPolymorphic || type.ConstructorParameterCount != 0)
        {
            return false;
        }

        foreach (var member in type.Members)
        {
            if (member.Write is MemberWriteKind.Constructor or MemberWriteKind.Initializer)
            {
                return false;
            }
        }

        return true;
    }

    private ExpressionSyntax? InitializerOf(ISymbol member)
    {
        foreach (var reference in member.DeclaringSyntaxReferences)
        {
            var syntax = reference.GetSyntax(_cancellationToken);
            switch (syntax)
            {
                case PropertyDeclarationSyntax property when IsAutoProperty(property):
                    return property.Initializer?.Value;
                case VariableDeclaratorSyntax field:
                    return field.Initializer?.Value;
            }
        }

        return null;
    }

    private static bool IsAutoProperty(PropertyDeclarationSyntax property)
    {
        if (property.AccessorList is not { } accessors)
        {
            return false;
        }

        foreach (var accessor in accessors.Accessors)
        {
            if (accessor.Body is not null || accessor.ExpressionBody is not null)
            {
                return false;
            }
        }

        return true;
    }

    private bool CreatesEmpty(ExpressionSyntax initializer, ITypeSymbol memberType)
    {
        switch (initializer)
        {
            case CollectionExpressionSyntax collection:
                return collection.Elements.Count == 0;
            case ImplicitObjectCreationExpressionSyntax creation:
                return creation.ArgumentList.Arguments.Count == 0 && creation.Initializer is null;
            case ObjectCreationExpressionSyntax creation when creation.ArgumentList is not { Arguments.Count: > 0 } && creation.Initializer is null:
                var created = _known.Compilation.GetSemanticModel(creation.SyntaxTree).GetTypeInfo(creation, _cancellationToken).Type;
                return SymbolEqualityComparer.Default.Equals(created, memberType);
            default:
                return false;
        }
    }
}
