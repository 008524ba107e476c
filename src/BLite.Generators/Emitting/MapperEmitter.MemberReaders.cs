using System.Collections.Generic;
using BLite.Generators.Model;

namespace BLite.Generators.Emitting;

/// <summary>
/// Typed per-member readers (IMemberReaderProvider): one per single-valued scalar member path, each
/// reading the value with the same code the deserializer uses for that member, so a projection
/// gets exactly the value a materialized document would hold without building it.
/// </summary>
internal sealed partial class MapperEmitter
{
    // The same cap as the field table: sibling paths of a large model cannot multiply without bound.
    private const int MaxMemberReaders = 1024;

    private const string MemberReaderType = "global::BLite.Bson.Mapping.MemberReader";

    private void EmitMemberReaders()
    {
        var w = _writer;
        var readers = new List<(string Path, ValueSpec Value, string Label)>();
        CollectReadablePaths(0, "", new HashSet<int> { 0 }, readers);
        w.Open($"public {MemberReaderType}? GetMemberReader(string memberPath)");
        w.Open("switch (memberPath)");
        foreach (var (path, value, label) in readers)
        {
            w.Line($"case {Literals.String(path)}:");
            w.Open($"return new {MemberReaderType}<{value.AnnotatedTypeName}>((ref {ReaderType} reader, global::BLite.Bson.BsonType type) =>");
            w.Line($"{value.AnnotatedTypeName} value;");
            ReadValue(value, "value", "type", label);
            w.Line("return value;");
            w.Close(");");
        }

        w.Line("default:");
        w.Line("    return null;");
        w.Close();
        w.Close();
        w.Line();
    }

    private void CollectReadablePaths(int typeIndex, string prefix, HashSet<int> onPath, List<(string, ValueSpec, string)> readers)
    {
        var type = _spec.Types[typeIndex];
        foreach (var member in type.Members)
        {
            if (readers.Count >= MaxMemberReaders)
            {
                return;
            }

            var path = prefix + member.Name.TrimStart('@');
            if (IsReadableScalar(member.Value))
            {
                readers.Add((path, member.Value, type.DisplayName + "." + member.Name.TrimStart('@')));
                continue;
            }

            // Only plain embedded objects are walked: a polymorphic one may hold members its base type does not.
            if (member.Value is { Kind: ValueKind.Object, IsPolymorphic: false } nested && onPath.Add(nested.TypeIndex))
            {
                CollectReadablePaths(nested.TypeIndex, path + ".", onPath, readers);
                onPath.Remove(nested.TypeIndex);
            }
        }
    }

    private static bool IsReadableScalar(ValueSpec value) => value.Kind switch
    {
        ValueKind.Nullable => IsReadableScalar(value.Element!),
        ValueKind.Binary or ValueKind.Float32Vector or ValueKind.Float32VectorMemory or ValueKind.Object or ValueKind.Collection
            or ValueKind.Dictionary or ValueKind.DocumentRef => false,
        _ => true,
    };
}
