namespace BLite.Generators.Model;

/// <summary>
/// A <c>Project(o =&gt; new X(o.A, o.B) { C = o.D })</c> call seen in user code, to get a typed
/// projection constructor. <paramref name="Shape"/> is the key the runtime computes from the
/// translated selector: <c>new(A,B){C=D}</c>, member paths as C# member names.
/// </summary>
/// <param name="ArgumentTypes">The constructor's parameter types, fully qualified.</param>
/// <param name="Initializers">The initialized members, in source order.</param>
internal sealed record ProjectionShapeSpec(
    string DocumentTypeName,
    string ResultTypeName,
    string Shape,
    EquatableArray<string> ArgumentTypes,
    EquatableArray<ProjectionMemberSpec> Initializers);

/// <summary>One initialized member of a projection: its name and type, fully qualified.</summary>
internal sealed record ProjectionMemberSpec(string MemberName, string TypeName);
