namespace BLite.Generators;

/// <summary>Names of the pipeline steps, so tests can check that an unrelated edit leaves them cached.</summary>
internal static class TrackingNames
{
    public const string DocumentTypes = nameof(DocumentTypes);
    public const string ContextNames = nameof(ContextNames);
    public const string Contexts = nameof(Contexts);
    public const string ContextSpecs = nameof(ContextSpecs);
    public const string Mappers = nameof(Mappers);
    public const string Diagnostics = nameof(Diagnostics);
    public const string ProjectionShapes = nameof(ProjectionShapes);
    public const string ProjectionConstructors = nameof(ProjectionConstructors);
}
