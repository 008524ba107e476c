using System.Text.Json;

namespace BLite.Benchmarks.Manual;

/// <summary>
/// Writes the manual run as
/// <c>{ "machine", "runtime", "documents", "results": [ { "scenario", "engine", "durability",
/// "medianNsPerOp", "allocatedBytesPerOp" } ] }</c> — the shape other tools read, so nothing else goes in.
/// </summary>
public static class ResultJsonWriter
{
    public static void Write(Stream output, MachineInfo machine, int documents, IReadOnlyList<ManualResult> results)
    {
        using var json = new Utf8JsonWriter(output, new JsonWriterOptions { Indented = true });
        json.WriteStartObject();
        json.WriteString("machine", machine.Description);
        json.WriteString("runtime", machine.Runtime);
        json.WriteNumber("documents", documents);
        json.WriteStartArray("results");
        foreach (var result in results)
        {
            json.WriteStartObject();
            json.WriteString("scenario", result.Scenario);
            json.WriteString("engine", result.Engine);
            json.WriteString("durability", result.Durability);
            json.WriteNumber("medianNsPerOp", Math.Round(result.MedianNsPerOp, 1));
            json.WriteNumber("allocatedBytesPerOp", (long)Math.Round(result.AllocatedBytesPerOp));
            json.WriteEndObject();
        }

        json.WriteEndArray();
        json.WriteEndObject();
    }

    public static void Write(string path, MachineInfo machine, int documents, IReadOnlyList<ManualResult> results)
    {
        var directory = Path.GetDirectoryName(Path.GetFullPath(path));
        if (directory is not null)
        {
            Directory.CreateDirectory(directory);
        }

        using var file = File.Create(path);
        Write(file, machine, documents, results);
    }
}
