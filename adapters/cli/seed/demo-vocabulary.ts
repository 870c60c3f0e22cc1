/**
 * Word lists of the demo data set: names, places, employers and trades of Kazakhstan and Uzbekistan, with
 * the Latin spelling that e-mail addresses use. Employers are made up; universities and cities are real.
 */

/** A name in Cyrillic and the Latin spelling of it. */
export type Name = readonly [cyrillic: string, latin: string];

export interface NamePool {
  readonly male: readonly Name[];
  readonly female: readonly Name[];
  /** Last names in the male form; the female form adds "а" (surnames without a gendered form are listed in `plain`). */
  readonly last: readonly Name[];
  readonly plain: readonly Name[];
}

export const KAZAKH_NAMES: NamePool = {
  male: [['Ерлан', 'erlan'], ['Нурлан', 'nurlan'], ['Айдар', 'aidar'], ['Асхат', 'askhat'], ['Данияр', 'daniyar'], ['Ержан', 'erzhan'],
    ['Бауыржан', 'bauyrzhan'], ['Арман', 'arman'], ['Санжар', 'sanzhar'], ['Темирлан', 'temirlan'], ['Алмас', 'almas'], ['Нуржан', 'nurzhan']],
  female: [['Айгерим', 'aigerim'], ['Динара', 'dinara'], ['Асель', 'assel'], ['Жанна', 'zhanna'], ['Гульнара', 'gulnara'], ['Айдана', 'aidana'],
    ['Мадина', 'madina'], ['Сауле', 'saule'], ['Камила', 'kamila'], ['Акмарал', 'akmaral'], ['Алия', 'aliya'], ['Томирис', 'tomiris']],
  last: [['Нурланов', 'nurlanov'], ['Ахметов', 'akhmetov'], ['Жумабаев', 'zhumabayev'], ['Касымов', 'kassymov'], ['Садыков', 'sadykov'],
    ['Омаров', 'omarov'], ['Абенов', 'abenov'], ['Тулегенов', 'tulegenov'], ['Искаков', 'iskakov'], ['Сапаров', 'saparov']],
  plain: [['Сейткали', 'seitkali'], ['Бекболат', 'bekbolat'], ['Ермекулы', 'ermekuly']],
};

export const UZBEK_NAMES: NamePool = {
  male: [['Тимур', 'timur'], ['Алишер', 'alisher'], ['Бахтиёр', 'bakhtiyor'], ['Жасур', 'jasur'], ['Шерзод', 'sherzod'], ['Азиз', 'aziz'],
    ['Фарход', 'farkhod'], ['Улугбек', 'ulugbek'], ['Рустам', 'rustam'], ['Отабек', 'otabek'], ['Дилшод', 'dilshod'], ['Сардор', 'sardor']],
  female: [['Дилноза', 'dilnoza'], ['Нигора', 'nigora'], ['Гулнора', 'gulnora'], ['Шахноза', 'shakhnoza'], ['Малика', 'malika'], ['Зарина', 'zarina'],
    ['Феруза', 'feruza'], ['Севара', 'sevara'], ['Камола', 'kamola'], ['Нодира', 'nodira'], ['Умида', 'umida'], ['Мохира', 'mokhira']],
  last: [['Рашидов', 'rashidov'], ['Юсупов', 'yusupov'], ['Каримов', 'karimov'], ['Алимов', 'alimov'], ['Рахимов', 'rakhimov'],
    ['Исмоилов', 'ismoilov'], ['Турсунов', 'tursunov'], ['Абдуллаев', 'abdullaev'], ['Хасанов', 'khasanov'], ['Эргашев', 'ergashev']],
  plain: [['Мирзо', 'mirzo']],
};

export const RUSSIAN_NAMES: NamePool = {
  male: [['Алексей', 'aleksey'], ['Дмитрий', 'dmitry'], ['Сергей', 'sergey'], ['Андрей', 'andrey'], ['Максим', 'maksim'], ['Иван', 'ivan'],
    ['Никита', 'nikita'], ['Артём', 'artem'], ['Павел', 'pavel'], ['Евгений', 'evgeny']],
  female: [['Анна', 'anna'], ['Екатерина', 'ekaterina'], ['Ольга', 'olga'], ['Мария', 'maria'], ['Наталья', 'natalya'], ['Елена', 'elena'],
    ['Юлия', 'yulia'], ['Ирина', 'irina'], ['Татьяна', 'tatyana'], ['Ксения', 'ksenia']],
  last: [['Иванов', 'ivanov'], ['Смирнов', 'smirnov'], ['Кузнецов', 'kuznetsov'], ['Попов', 'popov'], ['Соколов', 'sokolov'],
    ['Лебедев', 'lebedev'], ['Козлов', 'kozlov'], ['Новиков', 'novikov'], ['Морозов', 'morozov'], ['Волков', 'volkov']],
  plain: [['Ким', 'kim'], ['Пак', 'pak'], ['Цой', 'tsoy']],
};

export interface Country {
  readonly code: 'kz' | 'uz';
  readonly name: string;
  readonly currency: 'KZT' | 'UZS';
  /** UZS per KZT, roughly, so that salaries of one trade are alike in both countries. */
  readonly salaryFactor: number;
  readonly salaryStep: number;
  /** Cities, and provinces as the job board names some regions. */
  readonly regions: readonly string[];
  readonly pools: readonly NamePool[];
  readonly nativeLanguage: string;
  readonly universities: readonly string[];
  readonly employers: readonly string[];
  readonly mailDomain: string;
  readonly boardHost: string;
}

export const KAZAKHSTAN: Country = {
  code: 'kz', name: 'Казахстан', currency: 'KZT', salaryFactor: 1, salaryStep: 10_000,
  regions: ['Алматы', 'Астана', 'Шымкент', 'Караганда', 'Актобе', 'Атырау', 'Павлодар', 'Усть-Каменогорск', 'Костанай', 'Карагандинская область', 'Алматинская область'],
  pools: [KAZAKH_NAMES, KAZAKH_NAMES, RUSSIAN_NAMES],
  nativeLanguage: 'Казахский',
  universities: ['КазНУ им. аль-Фараби', 'ЕНУ им. Л. Н. Гумилёва', 'Satbayev University', 'Казахстанско-Британский технический университет', 'Карагандинский университет им. Е. А. Букетова'],
  employers: ['ТОО «Каспиан Софт»', 'ТОО «Номад Диджитал»', 'АО «Степной Транзит»', 'ТОО «Алатау Ритейл»', 'ТОО «Есиль Строй»', 'ТОО «Тенгри Финанс»', 'ИП «Жибек Жолы»'],
  mailDomain: 'example.kz',
  boardHost: 'hh.kz',
};

export const UZBEKISTAN: Country = {
  code: 'uz', name: 'Узбекистан', currency: 'UZS', salaryFactor: 25, salaryStep: 100_000,
  regions: ['Ташкент', 'Самарканд', 'Бухара', 'Наманган', 'Андижан', 'Фергана', 'Нукус', 'Карши', 'Ташкентская область'],
  pools: [UZBEK_NAMES, UZBEK_NAMES, RUSSIAN_NAMES],
  nativeLanguage: 'Узбекский',
  universities: ['Национальный университет Узбекистана', 'ТУИТ им. Мухаммада аль-Хорезми', 'Ташкентский государственный экономический университет', 'Самаркандский государственный университет', 'Вестминстерский международный университет в Ташкенте'],
  employers: ['ООО «Silk Road Logistics»', 'ООО «Чорсу Маркет»', 'АО «Навруз Финанс»', 'ООО «Бухоро Текстиль»', 'ООО «Самарканд Тех»', 'ООО «Фаргона Агро»'],
  mailDomain: 'example.uz',
  boardHost: 'hh.uz',
};

export interface Trade {
  readonly title: string;
  readonly role: string;
  readonly professionalRole: string;
  readonly skills: readonly string[];
  readonly duties: readonly string[];
  /** Monthly salary range in KZT. */
  readonly salary: readonly [number, number];
}

export const TRADES: readonly Trade[] = [
  { title: 'Backend-разработчик (Node.js)', role: 'Backend developer', professionalRole: 'Программист, разработчик', salary: [700_000, 1_400_000],
    skills: ['Node.js', 'TypeScript', 'PostgreSQL', 'Docker', 'Redis', 'Kafka'], duties: ['Разработка API на Node.js', 'Работа с PostgreSQL & Redis', 'Код-ревью'] },
  { title: 'Frontend-разработчик (React)', role: 'Frontend developer', professionalRole: 'Программист, разработчик', salary: [600_000, 1_200_000],
    skills: ['React', 'TypeScript', 'Redux', 'CSS', 'Vite'], duties: ['Разработка интерфейсов личного кабинета', 'Вёрстка по макетам Figma'] },
  { title: 'Менеджер по продажам', role: 'Менеджер по продажам', professionalRole: 'Менеджер по продажам, менеджер по работе с клиентами', salary: [250_000, 600_000],
    skills: ['CRM', 'Переговоры', 'Холодные звонки', 'B2B-продажи'], duties: ['Звонки клиентам', 'Ведение CRM', 'Подготовка коммерческих предложений'] },
  { title: 'Бухгалтер', role: 'Бухгалтер', professionalRole: 'Бухгалтер', salary: [300_000, 550_000],
    skills: ['1С: Бухгалтерия', 'МСФО', 'Налоговый учёт'], duties: ['Первичная документация', 'Сдача налоговой отчётности'] },
  { title: 'Водитель-экспедитор', role: 'Водитель', professionalRole: 'Водитель', salary: [280_000, 450_000],
    skills: ['Категория C', 'Знание города', 'Работа с накладными'], duties: ['Доставка по области', 'Приём и сдача груза'] },
  { title: 'Оператор call-центра', role: 'Оператор', professionalRole: 'Оператор call-центра, специалист контактного центра', salary: [180_000, 300_000],
    skills: ['Грамотная речь', 'CRM', 'Работа с возражениями'], duties: ['Приём входящих звонков', 'Консультирование клиентов'] },
  { title: 'Рекрутер', role: 'HR-менеджер', professionalRole: 'Менеджер по персоналу, специалист по подбору персонала', salary: [300_000, 600_000],
    skills: ['Подбор персонала', 'Собеседования', 'Адаптация персонала'], duties: ['Закрытие вакансий', 'Проведение собеседований'] },
  { title: 'Аналитик данных', role: 'Data analyst', professionalRole: 'Аналитик', salary: [550_000, 1_100_000],
    skills: ['SQL', 'Python', 'Power BI', 'A/B-тесты'], duties: ['Построение отчётов', 'Анализ воронки продаж'] },
  { title: 'Кладовщик', role: 'Кладовщик', professionalRole: 'Кладовщик', salary: [200_000, 320_000],
    skills: ['1С: Склад', 'Инвентаризация', 'Погрузчик'], duties: ['Приёмка товара', 'Инвентаризация склада'] },
  { title: 'Повар', role: 'Повар', professionalRole: 'Повар, пекарь, кондитер', salary: [220_000, 400_000],
    skills: ['Европейская кухня', 'Национальная кухня', 'Санминимум'], duties: ['Приготовление блюд по техкартам', 'Заготовки'] },
  { title: 'Инженер-электрик', role: 'Инженер-электрик', professionalRole: 'Инженер-электрик, инженер-электроник', salary: [400_000, 800_000],
    skills: ['AutoCAD', 'Электромонтаж', 'Допуск по электробезопасности'], duties: ['Проектирование сетей', 'Надзор за монтажом'] },
  { title: 'Маркетолог', role: 'Маркетолог', professionalRole: 'Маркетолог-аналитик', salary: [350_000, 750_000],
    skills: ['SMM', 'Таргетированная реклама', 'Google Analytics'], duties: ['Ведение рекламных кампаний', 'Отчёты по каналам'] },
];

/** Work formats as the job board names them, and sets of them that normalise to each of remote, office, hybrid, other. */
export const WORK_FORMAT_SETS: readonly (readonly string[])[] = [
  ['На месте работодателя'], ['На месте работодателя'], ['Удалённо'], ['На месте работодателя', 'Удалённо'], ['Гибрид'], ['Разъездной'],
];
export const EXPERIENCE_LEVELS = ['Нет опыта', 'От 1 года до 3 лет', 'От 3 до 6 лет', 'Более 6 лет'];
export const SCHEDULES = ['5/2', '2/2', '6/1', 'Свободный'];
export const EMPLOYMENT_FORMS = ['Полная', 'Полная', 'Частичная', 'Проектная'];
export const RECRUITERS = ['Айдана Касымова', 'Дилноза Юсупова', 'Ольга Смирнова', 'Нурлан Ахметов', 'Малика Каримова'];

/** Custom boards: a company renames, adds and reorders columns (spec 3.2). */
export const CUSTOM_COLUMNS: readonly (readonly string[])[] = [
  ['NEW', 'SCREENING', 'AI_DIALOG', 'TECH_INTERVIEW', 'OFFER', 'ONBOARDING', 'REJECTION'],
  ['Новые', 'Телефонное интервью', 'Собеседование', 'Проверка СБ', 'Оффер', 'Выход на работу', 'Отказ'],
];

export const APPLICATION_SOURCES = ['career-portal', 'career-portal', 'telegram-bot', 'partner-site'];
export const RELATIONSHIPS = ['бывший коллега', 'бывшая коллега', 'однокурсник', 'друг семьи', 'сосед'];
export const LANGUAGE_LEVELS = ['A2 — Элементарный', 'B1 — Средний', 'B2 — Средне-продвинутый', 'C1 — Продвинутый'];
export const COURSES: readonly (readonly [course: string, organizer: string])[] = [
  ['Advanced React', 'Coursera'], ['SQL для аналитиков', 'Stepik'], ['Управление проектами', 'Astana Hub'], ['1С: Бухгалтерия 8.3', 'Учебный центр «Профи»'],
];
