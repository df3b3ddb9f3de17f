// The 30-day trend (chart.js, bundled): one bar per UTC day.
import { Bar } from 'react-chartjs-2';
import { BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js';

Chart.register(BarElement, CategoryScale, LinearScale, Tooltip);

export function TrendChart({ points, label }: { points: { date: string; count: number }[]; label: string }) {
  return (
    <figure className="chart">
      <Bar
        aria-label={label}
        role="img"
        data={{ labels: points.map((p) => p.date.slice(5)), datasets: [{ label: 'Votes', data: points.map((p) => p.count), backgroundColor: '#6366f1' }] }}
        options={{
          animation: false,
          responsive: true,
          maintainAspectRatio: false,
          plugins: { legend: { display: false } },
          scales: { y: { beginAtZero: true, ticks: { precision: 0 } } },
        }}
      />
      <figcaption className="sr-only">
        {label}: {points.map((p) => `${p.date} ${p.count}`).join(', ')}
      </figcaption>
    </figure>
  );
}
