using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;

namespace BLite.Generators.Model;

/// <summary>A diagnostic held by value, so it can live in a cached pipeline model (a Location cannot).</summary>
internal sealed record DiagnosticInfo(DiagnosticDescriptor Descriptor, LocationInfo? Location, EquatableArray<string> Arguments)
{
    public static DiagnosticInfo Create(DiagnosticDescriptor descriptor, Location? location, params string[] arguments)
        => new(descriptor, LocationInfo.From(location), new EquatableArray<string>(arguments));

    public Diagnostic ToDiagnostic()
    {
        var args = new object[Arguments.Count];
        for (var i = 0; i < args.Length; i++)
        {
            args[i] = Arguments[i];
        }

        return Diagnostic.Create(Descriptor, Location?.ToLocation(), args);
    }
}

internal sealed record LocationInfo(string FilePath, TextSpan Span, LinePositionSpan LineSpan)
{
    public static LocationInfo? From(Location? location)
        => location is null || !location.IsInSource
            ? null
            : new LocationInfo(location.SourceTree!.FilePath, location.SourceSpan, location.GetLineSpan().Span);

    public Location ToLocation() => Location.Create(FilePath, Span, LineSpan);
}
