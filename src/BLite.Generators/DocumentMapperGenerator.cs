using System.Collections.Generic;
using System.Collections.Immutable;
using BLite.Bson.Mapping;
using BLite.Generators.Emitting;
using BLite.Generators.Model;
using BLite.Generators.Parsing;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace BLite.Generators;

/// <summary>
/// Emits a C-BSON mapper for every document type (collections of DocumentDbContext subclasses and
/// types marked [BLiteDocument]), the CreateCollections override of every context, and typed
/// constructors for the prepared projections it finds in user code.
/// Pipeline: parse (symbols to equatable specs) → dedupe mappers shared by several roots → emit.
/// </summary>
[Generator(LanguageNames.CSharp)]
public sealed class DocumentMapperGenerator : IIncrementalGenerator
{
    public void Initialize(IncrementalGeneratorInitializationContext context)
    {
        var documents = context.SyntaxProvider
            .ForAttributeWithMetadataName(
                MappingConventions.DocumentAttribute,
                static (node, _) => node is TypeDeclarationSyntax,
                static (syntaxContext, cancellationToken) => MapperParser.Parse(
                    (INamedTypeSymbol)syntaxContext.TargetSymbol,
                    KnownTypes.For(syntaxContext.SemanticModel.Compilation),
                    null,
                    cancellationToken))
            .WithTrackingName(TrackingNames.DocumentTypes);

        // Which class names can be contexts is worked out from syntax (and referenced context
        // base classes); only those classes are bound, so the project's other classes cost nothing
        // beyond reading their headers.
        var headers = context.SyntaxProvider
            .CreateSyntaxProvider(
                static (node, _) => ContextCandidates.IsHeader(node),
                static (syntaxContext, _) => ContextCandidates.Header(syntaxContext.Node))
            .Collect();
        var metadataContexts = context.CompilationProvider
            .Select(static (compilation, cancellationToken) => ContextCandidates.MetadataContextNames(compilation, cancellationToken));
        var contextNames = headers
            .Combine(metadataContexts)
            .Select(static (pair, _) => ContextCandidates.ContextNames(pair.Left, pair.Right))
            .WithTrackingName(TrackingNames.ContextNames);

        var contexts = headers
            .Combine(contextNames)
            .Combine(context.CompilationProvider)
            .SelectMany(static (input, cancellationToken) => ContextCandidates.ParseContexts(input.Left.Left, input.Left.Right, input.Right, cancellationToken))
            .WithTrackingName(TrackingNames.Contexts);

        var contextSpecs = contexts
            .Where(static result => result.Context is not null)
            .Select(static (result, _) => result.Context!)
            .WithTrackingName(TrackingNames.ContextSpecs);
        context.RegisterSourceOutput(contextSpecs, static (output, spec) =>
            output.AddSource(spec.HintName + ".g.cs", ContextEmitter.Emit(spec)));

        var all = documents.Collect().Combine(contexts.Collect());
        var mappers = all
            .SelectMany(static (pair, _) => DistinctMappers(pair.Left, pair.Right))
            .WithTrackingName(TrackingNames.Mappers);
        context.RegisterSourceOutput(mappers, static (output, spec) =>
            output.AddSource(HintName(spec), MapperEmitter.Emit(spec)));

        // Prepared projections in user code get typed constructors (docs/query.md, "Typed projections").
        var projectionShapes = context.SyntaxProvider
            .CreateSyntaxProvider(
                static (node, _) => ProjectionShapeParser.IsCandidate(node),
                static (syntaxContext, cancellationToken) => ProjectionShapeParser.Parse(syntaxContext, cancellationToken))
            .Where(static spec => spec is not null)
            .Select(static (spec, _) => spec!)
            .WithTrackingName(TrackingNames.ProjectionShapes)
            .Collect()
            .Select(static (specs, _) => ProjectionShapeParser.Distinct(specs))
            .WithTrackingName(TrackingNames.ProjectionConstructors);
        context.RegisterSourceOutput(projectionShapes, static (output, specs) =>
        {
            if (specs.Count > 0)
            {
                output.AddSource(ProjectionConstructorEmitter.HintName, ProjectionConstructorEmitter.Emit(specs));
            }
        });

        var diagnostics = all
            .Select(static (pair, _) => DistinctDiagnostics(pair.Left, pair.Right))
            .WithTrackingName(TrackingNames.Diagnostics);
        context.RegisterSourceOutput(diagnostics, static (output, list) =>
        {
            foreach (var diagnostic in list)
            {
                output.ReportDiagnostic(diagnostic.ToDiagnostic());
            }
        });
    }

    private static string HintName(MapperSpec spec)
        => (spec.Namespace is null ? spec.MapperName : spec.Namespace + "." + spec.MapperName) + ".g.cs";

    /// <summary>A type used by two contexts, or by a context and [BLiteDocument], gets one mapper.</summary>
    private static ImmutableArray<MapperSpec> DistinctMappers(ImmutableArray<DocumentResult> documents, ImmutableArray<ContextResult> contexts)
    {
        var seen = new HashSet<string>(System.StringComparer.Ordinal);
        var result = ImmutableArray.CreateBuilder<MapperSpec>();
        foreach (var document in documents)
        {
            if (document.Mapper is { } mapper && seen.Add(mapper.DocumentTypeName))
            {
                result.Add(mapper);
            }
        }

        foreach (var contextResult in contexts)
        {
            foreach (var mapper in contextResult.Mappers)
            {
                if (seen.Add(mapper.DocumentTypeName))
                {
                    result.Add(mapper);
                }
            }
        }

        return result.ToImmutable();
    }

    /// <summary>A type reached from several roots would otherwise report the same error once per root.</summary>
    private static EquatableArray<DiagnosticInfo> DistinctDiagnostics(ImmutableArray<DocumentResult> documents, ImmutableArray<ContextResult> contexts)
    {
        var seen = new HashSet<DiagnosticInfo>();
        var result = new List<DiagnosticInfo>();
        foreach (var document in documents)
        {
            foreach (var diagnostic in document.Diagnostics)
            {
                if (seen.Add(diagnostic))
                {
                    result.Add(diagnostic);
                }
            }
        }

        foreach (var contextResult in contexts)
        {
            foreach (var diagnostic in contextResult.Diagnostics)
            {
                if (seen.Add(diagnostic))
                {
                    result.Add(diagnostic);
                }
            }
        }

        return result.ToEquatableArray();
    }
}
