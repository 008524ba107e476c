using System.Collections.Generic;
using System.Collections.Immutable;
using System.Runtime.CompilerServices;
using System.Threading;
using BLite.Bson.Mapping;
using BLite.Generators.Model;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace BLite.Generators.Parsing;

/// <summary>
/// Narrows the classes worth binding to those that may be contexts, from syntax alone: the simple
/// names of every class header (<c>class X : Y, Z</c>) and alias (<c>using X = ...Y;</c>) form a
/// graph, and only classes whose name reaches <c>DocumentDbContext</c> through it, or through a
/// context base class compiled into a referenced assembly, are bound and checked by
/// <see cref="ContextParser"/>. Names over-approximate (another <c>Y</c> elsewhere only costs a
/// binding); they never miss a context declared in source, since its base chain is spelled out.
/// </summary>
internal static class ContextCandidates
{
    private static readonly string DbContextName = SimpleName(MappingConventions.DbContextType);
    private static readonly ConditionalWeakTable<IAssemblySymbol, string[]> ContextsByAssembly = new();

    public static bool IsHeader(SyntaxNode node) => node is ClassDeclarationSyntax { BaseList: not null } or UsingDirectiveSyntax { Alias: not null };

    /// <summary>The declared name, the simple names it derives from (or aliases), and where a class declares it.</summary>
    public static NameEdge Header(SyntaxNode node)
    {
        if (node is UsingDirectiveSyntax alias)
        {
            return new NameEdge(alias.Alias!.Name.Identifier.ValueText, new[] { SimpleName(alias.NamespaceOrType) }.ToEquatableArray(), null, -1);
        }

        var declaration = (ClassDeclarationSyntax)node;
        var types = declaration.BaseList!.Types;
        var bases = new string[types.Count];
        for (var i = 0; i < bases.Length; i++)
        {
            bases[i] = SimpleName(types[i].Type);
        }

        return new NameEdge(declaration.Identifier.ValueText, new EquatableArray<string>(bases), declaration.SyntaxTree.FilePath, declaration.Identifier.SpanStart);
    }

    /// <summary>
    /// Binds and parses the classes whose names can reach <c>DocumentDbContext</c>; the only
    /// semantic work done per keystroke for contexts, none for the project's other classes.
    /// </summary>
    public static ImmutableArray<ContextResult> ParseContexts(ImmutableArray<NameEdge> headers, EquatableArray<string> contextNames,
        Compilation compilation, CancellationToken cancellationToken)
    {
        var results = ImmutableArray.CreateBuilder<ContextResult>();
        foreach (var header in headers)
        {
            if (header.FilePath is null || header.Name == DbContextName || !Contains(contextNames, header.Name))
            {
                continue;
            }

            foreach (var tree in compilation.SyntaxTrees)
            {
                cancellationToken.ThrowIfCancellationRequested();
                if (tree.FilePath != header.FilePath
                    || tree.GetRoot(cancellationToken).FindToken(header.Position).Parent is not ClassDeclarationSyntax declaration
                    || declaration.Identifier.SpanStart != header.Position
                    || declaration.Identifier.ValueText != header.Name)
                {
                    continue;
                }

                if (ContextParser.Parse(declaration, compilation.GetSemanticModel(tree), cancellationToken) is { } result)
                {
                    results.Add(result);
                }

                break;
            }
        }

        return results.ToImmutable();
    }

    /// <summary>
    /// Simple names of the non-sealed context classes in referenced assemblies that themselves
    /// reference BLite (usually none): a source class may derive from one of them.
    /// </summary>
    public static EquatableArray<string> MetadataContextNames(Compilation compilation, CancellationToken cancellationToken)
    {
        var dbContext = KnownTypes.For(compilation).DbContext;
        if (dbContext is null)
        {
            return EquatableArray<string>.Empty;
        }

        var blite = dbContext.ContainingAssembly.Identity.Name;
        var names = new SortedSet<string>(System.StringComparer.Ordinal);
        foreach (var assembly in compilation.SourceModule.ReferencedAssemblySymbols)
        {
            cancellationToken.ThrowIfCancellationRequested();
            if (!ReferencesAssembly(assembly, blite))
            {
                continue;
            }

            // Referenced assembly symbols are shared by the compilations of one project until its
            // references change, so each is walked once, not on every keystroke.
            names.UnionWith(ContextsByAssembly.GetValue(assembly, a => ContextsIn(a, dbContext)));
        }

        return names.ToEquatableArray();
    }

    /// <summary>The names that reach <c>DocumentDbContext</c>, sorted ordinally for <see cref="Contains"/>.</summary>
    public static EquatableArray<string> ContextNames(ImmutableArray<NameEdge> edges, EquatableArray<string> metadataContexts)
    {
        var derived = new Dictionary<string, List<string>>(System.StringComparer.Ordinal);
        foreach (var edge in edges)
        {
            foreach (var baseName in edge.Bases)
            {
                if (!derived.TryGetValue(baseName, out var names))
                {
                    derived.Add(baseName, names = []);
                }

                names.Add(edge.Name);
            }
        }

        var reached = new SortedSet<string>(System.StringComparer.Ordinal);
        var pending = new Stack<string>();
        pending.Push(DbContextName);
        foreach (var name in metadataContexts)
        {
            pending.Push(name);
        }

        while (pending.Count > 0)
        {
            var name = pending.Pop();
            if (reached.Add(name) && derived.TryGetValue(name, out var names))
            {
                foreach (var next in names)
                {
                    pending.Push(next);
                }
            }
        }

        return reached.ToEquatableArray();
    }

    public static bool Contains(EquatableArray<string> sortedNames, string name)
    {
        var span = sortedNames.AsSpan();
        int low = 0, high = span.Length - 1;
        while (low <= high)
        {
            var middle = low + ((high - low) >> 1);
            var order = string.CompareOrdinal(span[middle], name);
            if (order == 0)
            {
                return true;
            }

            if (order < 0)
            {
                low = middle + 1;
            }
            else
            {
                high = middle - 1;
            }
        }

        return false;
    }

    private static bool ReferencesAssembly(IAssemblySymbol assembly, string name)
    {
        foreach (var module in assembly.Modules)
        {
            foreach (var referenced in module.ReferencedAssemblies)
            {
                if (referenced.Name == name)
                {
                    return true;
                }
            }
        }

        return false;
    }

    private static string[] ContextsIn(IAssemblySymbol assembly, INamedTypeSymbol dbContext)
    {
        var names = new SortedSet<string>(System.StringComparer.Ordinal);
        AddContexts(assembly.GlobalNamespace, dbContext, names);
        var result = new string[names.Count];
        names.CopyTo(result);
        return result;
    }

    private static void AddContexts(INamespaceOrTypeSymbol container, INamedTypeSymbol dbContext, SortedSet<string> names)
    {
        foreach (var member in container.GetMembers())
        {
            if (member is INamespaceSymbol ns)
            {
                AddContexts(ns, dbContext, names);
            }
            else if (member is INamedTypeSymbol { TypeKind: TypeKind.Class } type)
            {
                if (!type.IsSealed && ContextParser.DerivesFrom(type, dbContext))
                {
                    names.Add(type.Name);
                }

                AddContexts(type, dbContext, names);
            }
        }
    }

    private static string SimpleName(string metadataName) => metadataName.Substring(metadataName.LastIndexOf('.') + 1);

    private static string SimpleName(TypeSyntax type) => type switch
    {
        SimpleNameSyntax simple => simple.Identifier.ValueText,
        QualifiedNameSyntax qualified => qualified.Right.Identifier.ValueText,
        AliasQualifiedNameSyntax aliased => aliased.Name.Identifier.ValueText,
        _ => type.ToString(),
    };
}

/// <summary>
/// A class (or alias) name and the simple names of its base types (or alias target); for a class,
/// the file and the position of its name, so a possible context can be found again and bound.
/// </summary>
internal readonly record struct NameEdge(string Name, EquatableArray<string> Bases, string? FilePath, int Position);
