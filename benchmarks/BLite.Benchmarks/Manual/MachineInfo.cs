using System.Runtime.InteropServices;

namespace BLite.Benchmarks.Manual;

/// <summary>Where the figures came from: they mean little without it.</summary>
public sealed record MachineInfo(string Description, string Runtime)
{
    public static MachineInfo Current()
    {
        var description = $"{OperatingSystemName()}, {CpuModel()}, {Environment.ProcessorCount} logical cores";
        var runtime = $"{RuntimeInformation.FrameworkDescription} ({RuntimeInformation.ProcessArchitecture})";
        return new MachineInfo(description, runtime);
    }

    private static string OperatingSystemName()
    {
        const string osRelease = "/etc/os-release";
        if (File.Exists(osRelease))
        {
            foreach (var line in File.ReadLines(osRelease))
            {
                if (line.StartsWith("PRETTY_NAME=", StringComparison.Ordinal))
                {
                    return $"{line["PRETTY_NAME=".Length..].Trim('"')} (kernel {Environment.OSVersion.Version})";
                }
            }
        }

        return RuntimeInformation.OSDescription;
    }

    private static string CpuModel()
    {
        const string cpuInfo = "/proc/cpuinfo";
        if (File.Exists(cpuInfo))
        {
            foreach (var line in File.ReadLines(cpuInfo))
            {
                if (line.StartsWith("model name", StringComparison.Ordinal))
                {
                    var colon = line.IndexOf(':', StringComparison.Ordinal);
                    return line[(colon + 1)..].Trim();
                }
            }
        }

        return $"unknown CPU ({RuntimeInformation.OSArchitecture})";
    }

    /// <summary>
    /// The 1, 5 and 15 minute load averages (Linux), printed beside the figures: on a shared
    /// machine they say how far absolute times are inflated.
    /// </summary>
    public static string LoadAverage()
    {
        const string loadAverage = "/proc/loadavg";
        if (!File.Exists(loadAverage))
        {
            return "unknown";
        }

        var fields = File.ReadAllText(loadAverage).Split(' ', StringSplitOptions.RemoveEmptyEntries);
        return fields.Length >= 3 ? $"{fields[0]}, {fields[1]}, {fields[2]}" : "unknown";
    }

    /// <summary>
    /// The process's peak working set and the managed heap's size after the last collection
    /// (released objects count until a compacting collection returns them): with every engine's
    /// stores in one process they bound the engines together; <c>--engine</c> gives one each.
    /// </summary>
    public static string MemoryPeaks()
    {
        using var process = System.Diagnostics.Process.GetCurrentProcess();
        var heap = GC.GetGCMemoryInfo(GCKind.Any);
        return string.Create(System.Globalization.CultureInfo.InvariantCulture,
            $"peak working set {process.PeakWorkingSet64 / (1024.0 * 1024):N0} MiB, managed heap {heap.HeapSizeBytes / (1024.0 * 1024):N0} MiB after the last GC ({GC.GetTotalMemory(false) / (1024.0 * 1024):N0} MiB now)");
    }
}
