using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using System.Text;
using System.Threading;
using BLite.Generators.Model;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace BLite.Generators.Parsing;

/// <summary>
/// Finds the prepared projections (<c>collection.Project(o =&gt; new X(...) { ... })</c>) whose
/// selector only hands stored members of the document, at exactly the parameter's or member's
/// type, to a named type's constructor and initializer: those get a typed projection
/// constructor. Anything else (an anonymous type, a computation, a conversion, a named or
/// optional argument, a type the generated code cannot see) is left to the runtime's row path.
/// </summary>
internal static class ProjectionShapeParser
{
    private const string CollectionType = "BLite.DocumentCollection`2";

    /// <summary>Syntax only: a call to something named Project with one lambda building a named type.</summary>
    public static bool IsCandidate(SyntaxNode node) =>
        node is InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax access, ArgumentList.Arguments.Count: 1 } invocation
        && access.Name.Identifier.ValueText == "Project"
        && invocation.ArgumentList.Arguments[0].Expression is LambdaExpressionSyntax { ExpressionBody: ObjectCreationExpressionSyntax };

    public static ProjectionShapeSpec? Parse(GeneratorSyntaxContext context, CancellationToken cancellationToken)
    {
        var invocation = (InvocationExpressionSyntax)context.Node;
        var model = context.SemanticModel;
        var compilation = model.Compilation;
        if (model.GetSymbolInfo(invocation, cancellationToken).Symbol is not IMethodSymbol { TypeArguments.Length: 1 } method
            || !SymbolEqualityComparer.Default.Equals(method.ContainingType.OriginalDefinition, compilation.GetTypeByMetadataName(CollectionType)))
        {
            return null;
        }

        var lambda = (LambdaExpressionSyntax)invocation.ArgumentList.Arguments[0].Expression;
        var creation = (ObjectCreationExpressionSyntax)lambda.ExpressionBody!;
        var document = method.ContainingType.TypeArguments[1];
        var result = method.TypeArguments[0];
        if (LambdaParameter(lambda, model, cancellationToken) is not { } parameter
            || model.GetSymbolInfo(creation, cancellationToken).Symbol is not IMethodSymbol constructor
            || !SymbolEqualityComparer.Default.Equals(model.GetTypeInfo(creation, cancellationToken).Type, result)
            || !Visible(compilation, document) || !Visible(compilation, result) || !Visible(compilation, constructor))
        {
            return null;
        }

        var shape = new StringBuilder("new(");
        var arguments = creation.ArgumentList?.Arguments ?? default;
        if (arguments.Count != constructor.Parameters.Length)
        {
            return null;
        }

        var argumentTypes = new string[arguments.Count];
        for (var i = 0; i < arguments.Count; i++)
        {
            var argument = arguments[i];
            if (argument.NameColon is not null || !argument.RefKindKeyword.IsKind(SyntaxKind.None)
                || MemberPath(argument.Expression, parameter, constructor.Parameters[i].Type, model, cancellationToken) is not { } path
                || !Visible(compilation, constructor.Parameters[i].Type))
            {
                return null;
            }

            shape.Append(i == 0 ? "" : ",").Append(path);
            argumentTypes[i] = TypeNames.WithAnnotations(constructor.Parameters[i].Type);
        }

        shape.Append(')');
        var initializers = new List<ProjectionMemberSpec>();
        if (creation.Initializer is { } initializer)
        {
            if (!initializer.IsKind(SyntaxKind.ObjectInitializerExpression) || initializer.Expressions.Count == 0)
            {
                return null;
            }

            shape.Append('{');
            foreach (var expression in initializer.Expressions)
            {
                if (expression is not AssignmentExpressionSyntax { Left: IdentifierNameSyntax target } assignment
                    || InitializedMember(model.GetSymbolInfo(target, cancellationToken).Symbol, compilation) is not { } memberType
                    || MemberPath(assignment.Right, parameter, memberType, model, cancellationToken) is not { } path
                    || !Visible(compilation, memberType))
                {
                    return null;
                }

                shape.Append(initializers.Count == 0 ? "" : ",").Append(target.Identifier.ValueText).Append('=').Append(path);
                initializers.Add(new ProjectionMemberSpec(target.Identifier.ValueText, TypeNames.WithAnnotations(memberType)));
            }

            shape.Append('}');
        }

        return new ProjectionShapeSpec(TypeNames.Plain(document), TypeNames.Plain(result), shape.ToString(),
            new EquatableArray<string>(argumentTypes), initializers.ToEquatableArray());
    }

    /// <summary>One registration per document type, result type and shape, in a stable order.</summary>
    public static EquatableArray<ProjectionShapeSpec> Distinct(ImmutableArray<ProjectionShapeSpec> specs) =>
        specs.GroupBy(spec => (spec.DocumentTypeName, spec.ResultTypeName, spec.Shape))
            .Select(group => group.First())
            .OrderBy(spec => spec.DocumentTypeName, System.StringComparer.Ordinal)
            .ThenBy(spec => spec.ResultTypeName, System.StringComparer.Ordinal)
            .ThenBy(spec => spec.Shape, System.StringComparer.Ordinal)
            .ToEquatableArray();

    private static IParameterSymbol? LambdaParameter(LambdaExpressionSyntax lambda, SemanticModel model, CancellationToken cancellationToken)
    {
        var syntax = lambda switch
        {
            SimpleLambdaExpressionSyntax simple => simple.Parameter,
            ParenthesizedLambdaExpressionSyntax { ParameterList.Parameters.Count: 1 } parenthesized => parenthesized.ParameterList.Parameters[0],
            _ => null,
        };
        return syntax is null ? null : model.GetDeclaredSymbol(syntax, cancellationToken);
    }

    /// <summary>
    /// <c>o.A.B</c> as <c>A.B</c> when <paramref name="expression"/> is a chain of instance
    /// properties or fields on the lambda parameter whose type is exactly <paramref name="target"/>
    /// (no conversion: the runtime's translated selector then holds the bare member too).
    /// </summary>
    private static string? MemberPath(ExpressionSyntax expression, IParameterSymbol parameter, ITypeSymbol target, SemanticModel model, CancellationToken cancellationToken)
    {
        var type = model.GetTypeInfo(expression, cancellationToken);
        if (!SymbolEqualityComparer.Default.Equals(type.Type, target) || !SymbolEqualityComparer.Default.Equals(type.ConvertedType, target))
        {
            return null;
        }

        var names = new List<string>();
        var current = expression;
        while (current is MemberAccessExpressionSyntax access && access.IsKind(SyntaxKind.SimpleMemberAccessExpression))
        {
            var member = model.GetSymbolInfo(access, cancellationToken).Symbol;
            if (member is not (IPropertySymbol { IsStatic: false } or IFieldSymbol { IsStatic: false }))
            {
                return null;
            }

            names.Add(member!.Name);
            current = access.Expression;

            // `o.Customer!.City`: the suppression is a compile-time annotation; the expression tree holds the bare member.
            while (current is PostfixUnaryExpressionSyntax suppressed && suppressed.IsKind(SyntaxKind.SuppressNullableWarningExpression))
            {
                current = suppressed.Operand;
            }
        }

        if (names.Count == 0 || current is not IdentifierNameSyntax root
            || !SymbolEqualityComparer.Default.Equals(model.GetSymbolInfo(root, cancellationToken).Symbol, parameter))
        {
            return null;
        }

        names.Reverse();
        return string.Join(".", names);
    }

    /// <summary>The type of a member an object initializer may set from generated code, or null.</summary>
    private static ITypeSymbol? InitializedMember(ISymbol? symbol, Compilation compilation) => symbol switch
    {
        IPropertySymbol { IsStatic: false, SetMethod: { } setter } property when compilation.IsSymbolAccessibleWithin(setter, compilation.Assembly) => property.Type,
        IFieldSymbol { IsStatic: false, IsReadOnly: false, IsConst: false } field when compilation.IsSymbolAccessibleWithin(field, compilation.Assembly) => field.Type,
        _ => null,
    };

    /// <summary>Whether the generated registration, at assembly level, can name <paramref name="symbol"/>.</summary>
    private static bool Visible(Compilation compilation, ISymbol symbol) =>
        symbol is not ITypeSymbol { IsAnonymousType: true } && !(symbol is ITypeSymbol type && HasTypeParameter(type))
        && compilation.IsSymbolAccessibleWithin(symbol, compilation.Assembly);

    /// <summary>A type of a generic method or class (<c>T</c>, <c>Card&lt;T&gt;</c>) cannot be named by assembly-level code.</summary>
    private static bool HasTypeParameter(ITypeSymbol type) => type switch
    {
        ITypeParameterSymbol => true,
        IArrayTypeSymbol array => HasTypeParameter(array.ElementType),
        INamedTypeSymbol named => named.TypeArguments.Any(HasTypeParameter) || (named.ContainingType is { } outer && HasTypeParameter(outer)),
        _ => false,
    };
}
