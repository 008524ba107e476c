namespace BLite.Generators.Model;

/// <summary>What the parser found for one [BLiteDocument] type: a mapper, or diagnostics explaining why not.</summary>
internal sealed record DocumentResult(MapperSpec? Mapper, EquatableArray<DiagnosticInfo> Diagnostics);

/// <summary>What the parser found for one context: its wiring, the mappers of its collections, diagnostics.</summary>
internal sealed record ContextResult(ContextSpec? Context, EquatableArray<MapperSpec> Mappers, EquatableArray<DiagnosticInfo> Diagnostics);
