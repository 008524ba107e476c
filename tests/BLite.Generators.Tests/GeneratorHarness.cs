using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

namespace BLite.Generators.Tests;

/// <summary>Compiles test sources against the real BLite assemblies and runs the generator over them.</summary>
internal static class GeneratorHarness
{
    public static readonly CSharpParseOptions ParseOptions = new(LanguageVersion.Latest);

    private static readonly Lazy<ImmutableArray<MetadataReference>> References = new(LoadReferences);

    public static CSharpCompilation Compile(params string[] sources) => CompileWith([], sources);

    public static CSharpCompilation CompileWith(IEnumerable<MetadataReference> references, params string[] sources)
        => CSharpCompilation.Create(
            "GeneratorInput",
            sources.Select((source, i) => CSharpSyntaxTree.ParseText(source, ParseOptions, path: $"Input{i}.cs")),
            References.Value.AddRange(references),
            new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary, nullableContextOptions: NullableContextOptions.Enable));

    public static GeneratorDriver CreateDriver()
        => CSharpGeneratorDriver.Create(
            [new DocumentMapperGenerator().AsSourceGenerator()],
            parseOptions: ParseOptions,
            driverOptions: new GeneratorDriverOptions(IncrementalGeneratorOutputKind.None, trackIncrementalGeneratorSteps: true));

    /// <summary>Runs the generator; returns its result and the compilation including the generated code.</summary>
    public static (GeneratorRunResult Result, Compilation Output) Run(params string[] sources) => RunWith([], sources);

    /// <summary>As <see cref="Run"/>, with extra references (a library compiled by the test).</summary>
    public static (GeneratorRunResult Result, Compilation Output) RunWith(IEnumerable<MetadataReference> references, params string[] sources)
    {
        var input = CompileWith(references, sources);
        var driver = CreateDriver().RunGeneratorsAndUpdateCompilation(input, out var output, out _);
        return (driver.GetRunResult().Results.Single(), output);
    }

    /// <summary>
    /// The source text a generator diagnostic points at. Generator diagnostics carry file, span and
    /// line (their models cannot hold a SyntaxTree), so the text is looked up in the input tree of that file.
    /// </summary>
    public static string LocatedText(Compilation compilation, Diagnostic diagnostic)
    {
        var path = diagnostic.Location.GetLineSpan().Path;
        var tree = compilation.SyntaxTrees.Single(t => t.FilePath == path);
        return tree.GetText().ToString(diagnostic.Location.SourceSpan);
    }

    /// <summary>Compiler errors of the final compilation (input + generated).</summary>
    public static ImmutableArray<Diagnostic> CompilerErrors(Compilation compilation)
        => compilation.GetDiagnostics().Where(d => d.Severity == DiagnosticSeverity.Error).ToImmutableArray();

    private static ImmutableArray<MetadataReference> LoadReferences()
    {
        var paths = ((string)AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES")!).Split(Path.PathSeparator).ToList();
        paths.Add(typeof(BLite.ObjectId).Assembly.Location);
        paths.Add(typeof(BLite.DocumentDbContext).Assembly.Location);
        return paths.Distinct().Select(path => (MetadataReference)MetadataReference.CreateFromFile(path)).ToImmutableArray();
    }
}
